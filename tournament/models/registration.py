"""What online registration keeps besides the entries (issue 29, ``register.online``)."""

from __future__ import annotations

from django.db import models


class RegistrationAttempt(models.Model):
    """A registration form sent, for the limit per address: a digest of the address, not the
    address, and rows older than the limit's window are removed as new ones come."""

    address = models.CharField(max_length=32)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["address", "at"])]

    def __str__(self) -> str:
        return f"{self.address} {self.at:%Y-%m-%d %H:%M}"
