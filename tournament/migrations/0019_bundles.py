"""Events get a stable identifier that travels in event bundles (issue 15), filled one by one like
the players' in 0015 (a default on ``AddField`` would give every existing row the same value); and
players keep the identifiers other installations gave them (``PlayerAlias``)."""

import uuid

import django.db.models.deletion
from django.db import migrations, models


def fill(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    events = list(Event.objects.only("pk"))
    for event in events:
        event.uid = uuid.uuid4()
    Event.objects.bulk_update(events, ["uid"], batch_size=500)
    # a history row carries its event's identifier (a deleted event's rows get one of their own)
    uids = {event.pk: event.uid for event in events}
    Historical = apps.get_model("tournament", "HistoricalEvent")
    rows = list(Historical.objects.only("history_id", "id"))
    gone: dict[int, uuid.UUID] = {}
    for row in rows:
        row.uid = uids.get(row.id) or gone.setdefault(row.id, uuid.uuid4())
    Historical.objects.bulk_update(rows, ["uid"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0018_prizes")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="uid",
            field=models.UUIDField(editable=False, null=True, verbose_name="identifier"),
        ),
        migrations.AddField(
            model_name="historicalevent",
            name="uid",
            field=models.UUIDField(editable=False, null=True, verbose_name="identifier"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="uid",
            field=models.UUIDField(
                default=uuid.uuid4, editable=False, unique=True, verbose_name="identifier"
            ),
        ),
        migrations.AlterField(
            model_name="historicalevent",
            name="uid",
            field=models.UUIDField(
                db_index=True, default=uuid.uuid4, editable=False, verbose_name="identifier"
            ),
        ),
        migrations.CreateModel(
            name="PlayerAlias",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("uid", models.UUIDField(unique=True, verbose_name="identifier")),
                (
                    "decided_by",
                    models.CharField(blank=True, max_length=150, verbose_name="decided by"),
                ),
                (
                    "decided_at",
                    models.DateTimeField(auto_now_add=True, verbose_name="decided at"),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="aliases",
                        to="tournament.player",
                    ),
                ),
            ],
            options={
                "verbose_name": "player identifier from another installation",
                "verbose_name_plural": "player identifiers from other installations",
            },
        ),
    ]
