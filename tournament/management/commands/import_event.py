"""``manage.py import_event FILE``: an event bundle (written by ``export_event``) read into this
installation: checked, each player found here or proposed, every game scored again, the changes
shown, then written in one transaction (``publish.bundles``).

The administrator runs it on the association's server with the bundle a director brought from the
hall; ``--dry-run`` first shows what it would do, and a proposed player needs ``--same``,
``--new`` or ``--accept-exact``. Example::

    .venv/bin/python manage.py import_event furtwangen-2026.cego.json.gz --dry-run
"""

import getpass
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.core import errors
from tournament.publish.bundles import plan as bundles_plan
from tournament.publish.bundles import read, write
from tournament.register import identity


def _account() -> str:
    """The computer account that runs the command: the history's "who" of a command line
    import."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "?"


def _pair(text: str) -> tuple[str, str]:
    bundle_uid, sep, local_uid = text.partition("=")
    if not sep or not bundle_uid.strip() or not local_uid.strip():
        raise CommandError(_("--same takes BUNDLE_UID=LOCAL_UID, not “%(text)s”.") % {"text": text})
    return bundle_uid.strip(), local_uid.strip()


class Command(BaseCommand):
    help = (
        "Read an event bundle (written by export_event) into this installation: checks the "
        "file, finds each player here (by identifier, or proposes players whose name sounds "
        "the same with the same club or town), scores every game again, shows what changes, "
        "then writes everything in one transaction. A player proposed as a possible match "
        "needs a decision: --same BUNDLE_UID=LOCAL_UID, --new BUNDLE_UID, or --accept-exact "
        "(a single candidate with the same name, club and town is the same person); without "
        "one the command lists the proposals and stops."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the bundle file")
        parser.add_argument("--dry-run", action="store_true", help="check and show, save nothing")
        parser.add_argument(
            "--same",
            action="append",
            default=[],
            metavar="BUNDLE_UID=LOCAL_UID",
            help="the bundle's player is this installation's player (repeatable)",
        )
        parser.add_argument(
            "--new",
            action="append",
            default=[],
            metavar="BUNDLE_UID",
            help="the bundle's player is a new player, not the one proposed (repeatable)",
        )
        parser.add_argument(
            "--accept-exact",
            action="store_true",
            help="take a proposal with one candidate of the same name, club and town as the "
            "same person",
        )
        parser.add_argument(
            "--reason",
            default="",
            help="the bundle changes an event made here or finished here: why (kept in the "
            "history); without it such an event is not changed",
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(_("There is no file %(path)s.") % {"path": path})
        decisions = dict(_pair(text) for text in options["same"])
        decisions.update({uid.strip(): identity.NEW for uid in options["new"]})
        try:
            content = read.read_bundle(path.read_bytes())
            plan = bundles_plan.plan_import(
                content, decisions=decisions, accept_exact=options["accept_exact"]
            )
        except errors.Refused as exc:
            raise CommandError(str(exc)) from exc
        for line in plan.summary():
            self.stdout.write(line)
        for match in plan.matches:
            if match.how == identity.BY_IDENTIFIER or (match.is_new and not match.homonyms):
                continue
            self.stdout.write(self._describe(match))
        if plan.problems:
            raise CommandError(" ".join(plan.problems))
        if plan.undecided:
            raise CommandError(
                _(
                    "Nothing was imported: decide for each proposed player with "
                    "--same BUNDLE_UID=LOCAL_UID or --new BUNDLE_UID (or --accept-exact)."
                )
            )
        if plan.unchanged:
            self.stdout.write(_("Nothing to import: this bundle is imported already."))
            return
        if plan.needs_reason and not options["reason"].strip():
            raise CommandError(
                _(
                    "Nothing was imported: %(event)s was made on this installation or is "
                    "finished here. To let the bundle change it, give the reason with --reason."
                )
                % {"event": plan.event}
            )
        if options["dry_run"]:
            self.stdout.write(_("Dry run: nothing saved."))
            return
        try:
            plan = write.apply_import(
                content,
                decisions=decisions,
                accept_exact=options["accept_exact"],
                source=path.name,
                by=f"{_account()} (command line)",
                reason=options["reason"],
            )
        except errors.Refused as exc:
            raise CommandError(str(exc)) from exc
        if plan.unchanged:
            self.stdout.write(_("Nothing to import: this bundle is imported already."))
        else:
            self.stdout.write(self.style.SUCCESS(_("Imported %(event)s.") % {"event": plan.name}))

    def _describe(self, match: identity.Match) -> str:
        person = match.person
        text = f"  {person} ({person.place}) [{person.uid}]: {match.explain()}"
        if match.player is not None:
            text += f" -> {match.player} ({identity.place(match.player)}) [{match.player.uid}]"
        for candidate in match.candidates if not match.decided else []:
            text += "\n      " + _(
                "candidate: %(player)s (%(place)s) --same %(theirs)s=%(ours)s"
            ) % {
                "player": candidate,
                "place": identity.place(candidate),
                "theirs": person.uid,
                "ours": candidate.uid,
            }
        for homonym in match.homonyms:
            text += "\n      " + _(
                "same name, other club and town (kept apart): %(player)s (%(place)s) [%(uid)s]"
            ) % {"player": homonym, "place": identity.place(homonym), "uid": homonym.uid}
        return text
