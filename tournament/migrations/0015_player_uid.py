"""Every player gets a stable identifier (issue 15): added without a default, filled one by one
(a default on ``AddField`` would give every existing row the same value), then made unique."""

import uuid

from django.db import migrations, models


def fill(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    players = list(Player.objects.only("pk"))
    for player in players:
        player.uid = uuid.uuid4()
    Player.objects.bulk_update(players, ["uid"], batch_size=500)
    # a history row carries its player's identifier (a deleted player's rows get one of their own)
    uids = {player.pk: player.uid for player in players}
    Historical = apps.get_model("tournament", "HistoricalPlayer")
    rows = list(Historical.objects.only("history_id", "id"))
    gone: dict[int, uuid.UUID] = {}
    for row in rows:
        row.uid = uids.get(row.id) or gone.setdefault(row.id, uuid.uuid4())
    Historical.objects.bulk_update(rows, ["uid"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0014_table_phone")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="uid",
            field=models.UUIDField(editable=False, null=True, verbose_name="identifier"),
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="uid",
            field=models.UUIDField(editable=False, null=True, verbose_name="identifier"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="uid",
            field=models.UUIDField(
                default=uuid.uuid4, editable=False, unique=True, verbose_name="identifier"
            ),
        ),
        migrations.AlterField(
            model_name="historicalplayer",
            name="uid",
            field=models.UUIDField(
                db_index=True, default=uuid.uuid4, editable=False, verbose_name="identifier"
            ),
        ),
    ]
