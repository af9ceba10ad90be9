"""The directors' player register (issue 15): every player of every event and season, searched
by name (spelling variants too), club and town; a player corrected, two players merged, a
player's consent recorded or withdrawn (issue 46), and each player's events across seasons.

Directors only (``access.is_director``): a player is one person across every event, so a
correction or a merge here reaches beyond any one organiser's event. An organiser corrects the
players of their own event on the event's player page.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from functools import lru_cache
from typing import Any

from django.contrib import messages
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count, Max, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import access
from tournament.core import collation, errors, names, shown
from tournament.models import Entry, Player
from tournament.paper.player_data import player_data, readable
from tournament.register import reads, services
from tournament.register.forms import AnonymiseForm, ConsentForm, PlayerForm
from tournament.results import history, player_stats
from tournament.views.common import corrected_player, protected

# a search shows this many players; a longer list asks for a narrower search
REGISTER_LIMIT = 200
# a player's likely duplicates named in the register's list (the player's page names them all)
TWINS_SHOWN = 3


def _words(text: str) -> list[str]:
    return names.normalise(text).split()


def _codes(text: str) -> frozenset[str]:
    return frozenset(code for code in names.name_key(text, "")[0].split() if code)


@lru_cache(maxsize=50_000)
def _spelling(first_name: str, last_name: str) -> tuple[str, frozenset[str], tuple[str, str]]:
    """A name as the register compares it, worked out once per process: the text with umlauts
    spelt out, the Kölner Phonetik code of each word, and the key duplicates share."""
    key = names.name_key(first_name, last_name)
    return (
        names.normalise(f"{first_name} {last_name}"),
        frozenset(" ".join(key).split()),
        key,
    )


def _matches(player: Player, words: list[str], codes: list[frozenset[str]]) -> bool:
    """Every word asked for is in the player's first or last name: as typed (umlauts spelt
    out, so "Schaeuble" finds "Schäuble"), or sounding the same (Kölner Phonetik: "Meier" finds
    "Maier")."""
    name, sounds, _key = _spelling(player.first_name, player.last_name)
    pairs = zip(words, codes, strict=True)
    return all(word in name or (code and code <= sounds) for word, code in pairs)


def find_players(query: str = "", club: str = "", town: str = "") -> list[Player]:
    """Players whose name, club and town match, in German name order, each with ``events`` (how
    many events played or entered) and ``last_date`` (the latest). One query: the register's few
    thousand players are compared in Python, where spelling variants are known."""
    words = _words(query)
    codes = [_codes(word) for word in words]
    club_words, town_words = _words(club), _words(town)
    found = []
    for player in _annotated(Player.objects.all()):
        if words and not _matches(player, words, codes):
            continue
        if club_words and not all(w in names.normalise(player.club) for w in club_words):
            continue
        if town_words and not all(w in names.normalise(player.town) for w in town_words):
            continue
        found.append(player)
    return sorted(found, key=collation.player_key)


def _annotated(players: QuerySet[Player]) -> QuerySet[Player]:
    return players.annotate(events=Count("entries"), last_date=Max("entries__event__date"))


def likely_twins(players: list[Player]) -> dict[int, list[Player]]:
    """For every player of ``players`` that is probably the same person as another known player
    (same first and last name key, as ``names.NameIndex`` compares them): those others, in name
    order. A pair known to be two people (``reads.kept_apart``: the director said so, or both
    played one event) is not flagged: the register would flag it for ever. Three queries."""
    groups: dict[tuple[str, str], list[Player]] = defaultdict(list)
    for known in Player.objects.only("pk", "uid", "first_name", "last_name", "club", "town"):
        key = _spelling(known.first_name, known.last_name)[2]
        if all(key):
            groups[key].append(known)
    asked = {}
    for player in players:
        key = _spelling(player.first_name, player.last_name)[2]
        if len(groups.get(key, ())) >= 2:
            asked[player.pk] = key
    apart = reads.kept_apart({p.pk for key in set(asked.values()) for p in groups[key]})
    ordered: dict[tuple[str, str], list[Player]] = {}
    twins: dict[int, list[Player]] = {}
    for pk, key in asked.items():
        if key not in ordered:
            ordered[key] = collation.by_name(groups[key], lambda p: p)
        found = [p for p in ordered[key] if p.pk != pk and not apart(pk, p.pk)]
        if found:
            twins[pk] = found
    return twins


@protected
def register(request: HttpRequest) -> HttpResponse:
    """Search the register; every player found who is probably registered twice is flagged, with
    a link to compare and merge."""
    access.require_director(request)
    query = request.GET.get("q", "").strip()[:100]
    club = request.GET.get("club", "").strip()[:150]
    town = request.GET.get("town", "").strip()[:150]
    found = find_players(query, club, town)
    shown = found[:REGISTER_LIMIT]
    twins = likely_twins(shown)
    for player in shown:
        found_twins = twins.get(player.pk, [])
        player.twins = found_twins[:TWINS_SHOWN]
        player.more_twins = len(found_twins) - len(player.twins)
    return render(
        request,
        "tournament/register/register.html",
        {
            "players": shown,
            "count": len(found),
            "more": len(found) - len(shown),
            "query": query,
            "club": club,
            "town": town,
            "duplicates": sum(1 for p in shown if p.twins),
        },
    )


def _player_or_404(uid: uuid.UUID) -> Player:
    return get_object_or_404(Player, uid=uid)


@protected
@require_http_methods(["GET", "POST"])
def register_player(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """One player: correct name, club, town and category (for every event, kept in the history),
    the consents given and a new one recorded, the events played across seasons, and the players
    who are probably the same person."""
    access.require_director(request)
    player = _player_or_404(uid)
    form = PlayerForm(request.POST or None, instance=player)
    if (saved := corrected_player(request, form)) is not None:
        return redirect("register_player", uid=saved.uid)
    player.refresh_from_db()  # the heading shows the saved name, not the rejected one
    return _player_page(request, player, form=form)


@protected
@require_POST
def register_consent(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """Record a player's consent as the player states it now, at the desk or by mail
    (``services.record_consents``): what the public pages show of the player follows at once,
    and the message says what that is. None ticked is a withdrawal."""
    access.require_director(request)
    player = _player_or_404(uid)
    form = ConsentForm(request.POST, player=player)
    if not form.is_valid():
        return _player_page(request, player, form=PlayerForm(instance=player), consent_form=form)
    site_before = _on_the_website(player)
    services.record_consents(
        consents=[form.save(commit=False)],
        user=request.user,
        reason=form.cleaned_data["reason"],
    )
    player.refresh_from_db()
    said = [_("Consent recorded."), _reach(player)]
    named, town = _on_the_website(player)
    if site_before[0] and not named:
        said.append(
            _("The season's published website names the player until it is published again.")
        )
    elif site_before[1] and not town:
        said.append(_("The season's published website shows the town until it is published again."))
    messages.success(request, " ".join(said))
    return redirect("register_player", uid=player.uid)


def _on_the_website(player: Player) -> tuple[bool, bool]:
    """Whether the season's published website names the player, and shows their town."""
    named = player.public_lists and player.public_season
    return named, named and player.town_shown


def _reach(player: Player) -> str:
    return shown.reach(
        first_name=player.first_name,
        last_name=player.last_name,
        lists=player.public_lists,
        season=player.public_season,
        town=player.town_shown,
    )


def _player_page(
    request: HttpRequest,
    player: Player,
    *,
    form: PlayerForm,
    consent_form: ConsentForm | None = None,
) -> HttpResponse:
    consents = list(reads.consents_of(player))
    if consent_form is None:
        consent_form = ConsentForm(player=player, current=consents[0] if consents else None)
    return render(
        request,
        "tournament/register/player.html",
        {
            "player": player,
            "form": form,
            "consents": consents,
            "reach": _reach(player),
            "consent_form": consent_form,
            # with the seats' counting sums
            "entries": _entries_of([player]).annotate(
                total=Coalesce(Sum("seats__points"), Value(0))
            ),
            "changes": history.for_player(player),
            "twins": likely_twins([player]).get(player.pk, []),
        },
    )


@protected
@require_http_methods(["GET", "POST"])
def register_anonymise(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """Anonymise a player on their request (``services.anonymise_player``): the page says what
    happens and what stays, and asks the reason; its button does it."""
    access.require_director(request)
    player = _player_or_404(uid)
    form = AnonymiseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            done = services.anonymise_player(
                player=player, reason=form.cleaned_data["reason"], user=request.user
            )
        except errors.Refused as exc:
            messages.error(request, str(exc))
        else:
            # the message names the label only: the old name is not kept in the session either
            messages.success(
                request,
                _(
                    "The player is anonymised: now %(label)s. Publish the season again, so that "
                    "its website forgets the name too."
                )
                % {"label": done},
            )
            return redirect("register_player", uid=done.uid)
    return render(
        request,
        "tournament/register/anonymise.html",
        {
            "player": player,
            "form": form,
            "label": "{first_name} {last_name}".format(**services.anonymous_label(player)),
            "entries": player.entries.count(),
        },
    )


@protected
@require_http_methods(["GET", "POST"])
def register_merge(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """Merge another player into this one: choose the other (the likely twins first, or a search),
    see both side by side with what moves, then merge (``services.merge_players``)."""
    access.require_director(request)
    keep = _player_or_404(uid)
    other_uid = _uuid(request.POST.get("other") or request.GET.get("other", ""))
    other = Player.objects.filter(uid=other_uid).exclude(pk=keep.pk).first() if other_uid else None
    if other is None:
        if request.method == "POST" or request.GET.get("other"):
            messages.error(request, _("Choose the player to merge into this one."))
        query = request.GET.get("q", "").strip()[:100]
        found = [p for p in find_players(query) if p.pk != keep.pk] if query else []
        return render(
            request,
            "tournament/register/merge.html",
            {
                "keep": keep,
                "twins": likely_twins([keep]).get(keep.pk, []),
                "query": query,
                "found": found[:REGISTER_LIMIT],
            },
        )
    if request.method == "POST":
        try:
            kept = services.merge_players(keep=keep, remove=other, user=request.user)
        except errors.Refused as exc:
            messages.error(request, str(exc))
            return redirect("register_player", uid=keep.uid)
        messages.success(
            request, _("%(other)s merged into %(player)s.") % {"other": other, "player": kept}
        )
        return redirect("register_player", uid=kept.uid)
    return render(request, "tournament/register/merge.html", _comparison(keep, other))


def _uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text.strip())
    except (ValueError, AttributeError):
        return None


def _comparison(keep: Player, other: Player) -> dict[str, Any]:
    """Both players side by side and what the merge does: the entries that move, the events both
    played (which refuse the merge), the blanks filled in, and each season's points before and
    after. Each event's result is the one the player page shows; a row never adds results of two
    games (the events outside a season get a row per game). Three queries."""
    entries: dict[int, list[Entry]] = defaultdict(list)
    found = list(_entries_of([keep, other]))
    figures = player_stats.event_figures(found)
    for entry in found:
        entry.figure_value, entry.figure_text = figures.get(entry.pk, (0, "—"))
        entries[entry.player_id].append(entry)
    keep.entry_list, other.entry_list = entries[keep.pk], entries[other.pk]
    shared = {e.event_id for e in keep.entry_list} & {e.event_id for e in other.entry_list}
    shown = {"club": other.club, "town": other.town, "category": other.get_category_display()}
    filled = [
        (Player._meta.get_field(name).verbose_name, value)
        for name, value in shown.items()
        if not getattr(keep, name) and getattr(other, name)
    ]
    seasons: dict[Any, dict[str, Any]] = {}
    for player, side in ((keep, "keep"), (other, "other")):
        for entry in player.entry_list:
            season = entry.event.season
            game = entry.event.game_type
            row = seasons.setdefault(
                season.pk if season else ("no season", game.key),
                {
                    "season": season,
                    "game": game.name,
                    "keep": 0,
                    "other": 0,
                    "events_keep": 0,
                    "events_other": 0,
                },
            )
            row[side] += entry.figure_value
            row[f"events_{side}"] += 1
    for row in seasons.values():
        row["after"] = row["keep"] + row["other"]
    return {
        "keep": keep,
        "other": other,
        "players": [keep, other],
        "shared": shared,
        "filled": filled,
        "seasons": list(seasons.values()),
        "moving": len(other.entry_list),
    }


def _entries_of(players: list[Player]) -> QuerySet[Entry]:
    """The players' entries with event and season, newest first. One query."""
    return (
        Entry.objects.filter(player__in=players)
        .select_related("event__season")
        .order_by("-event__date", "-event__pk")
    )


@protected
@require_GET
def register_player_data(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """Everything held about one player (``paper.player_data``), for the player's request for
    it: as a page to read, with the link to the same as a file."""
    access.require_director(request)
    player = _player_or_404(uid)
    return render(
        request,
        "tournament/register/player_data.html",
        {"player": player, "data": readable(player_data(player))},
    )


@protected
@require_GET
def register_player_data_json(request: HttpRequest, uid: uuid.UUID) -> HttpResponse:
    """The same as a JSON file to hand to the player (machine-readable, DSGVO Art. 15 and 20)."""
    access.require_director(request)
    player = _player_or_404(uid)
    response = JsonResponse(
        player_data(player), encoder=DjangoJSONEncoder, json_dumps_params={"indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="spieler-{player.uid}.json"'
    return response
