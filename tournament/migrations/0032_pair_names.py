from django.db import migrations


def numbered_pairs(apps, schema_editor):
    """A Ziege pair given no name was named after the partners' last names ("Maier / Huber"),
    which the public pages show as it is, beyond the partners' consent (issue 46). Such a pair is
    numbered now, as a new one is ("Paar 3"); the partners' names follow it on every page as far
    as their consent reaches. A name the director typed stays."""
    Team = apps.get_model("tournament", "Team")
    Entry = apps.get_model("tournament", "Entry")
    members: dict[int, list[str]] = {}
    for pair_id, last_name in Entry.objects.filter(pair__isnull=False).values_list(
        "pair_id", "player__last_name"
    ):
        members.setdefault(pair_id, []).append(last_name)
    for event_id in Team.objects.filter(kind="pair").values_list("event_id", flat=True).distinct():
        pairs = list(Team.objects.filter(kind="pair", event_id=event_id).order_by("pk"))
        taken = {p.name for p in pairs}
        number = 0
        for pair in pairs:
            names = members.get(pair.pk, [])
            made = {" / ".join(names), " / ".join(reversed(names))}
            if len(names) != 2 or pair.name not in made:
                continue
            number += 1
            while f"Paar {number}" in taken:
                number += 1
            taken.discard(pair.name)
            pair.name = f"Paar {number}"
            taken.add(pair.name)
            pair.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0031_consent")]

    operations = [migrations.RunPython(numbered_pairs, migrations.RunPython.noop)]
