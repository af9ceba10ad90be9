"""What leaves this installation (L6): a season as a static website (``season``) and an event as
a bundle for another installation (``bundles``)."""
