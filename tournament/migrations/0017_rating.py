"""Ratings across events and seasons (issue 16) and a money value per point (issue 17)."""

import django.core.validators
import django.db.models.deletion
import tournament.games
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0016_seat_sums"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingBasis",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game", models.CharField(max_length=20, unique=True)),
                ("versions", models.CharField(blank=True, max_length=64)),
                ("data", models.CharField(blank=True, max_length=64)),
                ("computed_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.AddField(
            model_name="event",
            name="point_value_cents",
            field=models.PositiveIntegerField(
                blank=True,
                default=0,
                help_text="For games played for money: what one point or chip is worth, in cents (5 = 0.05 €). 0: not a money game.",
                validators=[django.core.validators.MaxValueValidator(10000)],
                verbose_name="money per point (cents)",
            ),
        ),
        migrations.AddField(
            model_name="historicalevent",
            name="point_value_cents",
            field=models.PositiveIntegerField(
                blank=True,
                default=0,
                help_text="For games played for money: what one point or chip is worth, in cents (5 = 0.05 €). 0: not a money game.",
                validators=[django.core.validators.MaxValueValidator(10000)],
                verbose_name="money per point (cents)",
            ),
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "game",
                    models.CharField(
                        choices=tournament.games.choices, max_length=20, verbose_name="game"
                    ),
                ),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("ordinal", models.FloatField(verbose_name="rating")),
                ("tables", models.PositiveIntegerField(verbose_name="tables")),
                ("hands", models.PositiveIntegerField(verbose_name="games")),
                ("updated_at", models.DateTimeField(verbose_name="computed at")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to="tournament.player",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating",
                "verbose_name_plural": "ratings",
                "ordering": ["game", "-ordinal"],
                "indexes": [models.Index(fields=["game", "-ordinal"], name="rating_game_ordinal")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "game"), name="rating_player_game_once"
                    )
                ],
            },
        ),
    ]
