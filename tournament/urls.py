"""The app's addresses. Each view is named by its module of ``tournament/views/``: the list says
where the code of a page is."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import path
from django.utils.functional import lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from tournament.views import (
    bundles,
    director,
    help,
    link,
    money,
    paper,
    playerday,
    public,
    publishing,
    rating,
    register,
    rulecard,
    settlement,
    sheets,
    stats,
)

urlpatterns = [
    path("", public.home, name="home"),
    path("anmelden/", auth_views.LoginView.as_view(), name="login"),
    path("abmelden/", auth_views.LogoutView.as_view(), name="logout"),
    # The language switch takes no form token: another site could at most switch a visitor's
    # language, and without a token the page around the standings is the same for every visitor,
    # so that it is kept whole in the page cache (tournament.pagecache).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    # browsers, PDF viewers and feed readers ask for /favicon.ico without reading a page's icon
    # link: the app's own icon, served from static/ (the address is looked up when asked, so a
    # hashed static name would be found too)
    path(
        "favicon.ico",
        RedirectView.as_view(url=lazy(static, str)("img/favicon.svg")),
        name="favicon",
    ),
    # the directors' handbook, German at /hilfe/ and English at /help/ (tournament/handbook.py)
    path("hilfe/", help.handbook_page, {"language": "de"}, name="handbook"),
    path("hilfe/img/<str:name>", help.handbook_image, {"language": "de"}, name="handbook_image"),
    path("hilfe/<slug:chapter>/", help.handbook_page, {"language": "de"}, name="handbook_chapter"),
    path("help/", help.handbook_page, {"language": "en"}, name="guide"),
    path("help/img/<str:name>", help.handbook_image, {"language": "en"}, name="guide_image"),
    path("help/<slug:chapter>/", help.handbook_page, {"language": "en"}, name="guide_chapter"),
    path("datenschutz/", public.privacy, name="privacy"),
    path("spieler/<uuid:uid>/", public.player_page, name="player"),
    path("wertung/", rating.rating_page, name="rating"),
    path("wertung/<slug:game>/", rating.rating_page, name="rating_game"),
    path("spielerverzeichnis/", register.register, name="register"),
    path("spielerverzeichnis/<uuid:uid>/", register.register_player, name="register_player"),
    path(
        "spielerverzeichnis/<uuid:uid>/einwilligung/",
        register.register_consent,
        name="register_consent",
    ),
    path(
        "spielerverzeichnis/<uuid:uid>/daten/",
        register.register_player_data,
        name="register_player_data",
    ),
    path(
        "spielerverzeichnis/<uuid:uid>/daten.json",
        register.register_player_data_json,
        name="register_player_data_json",
    ),
    path(
        "spielerverzeichnis/<uuid:uid>/anonymisieren/",
        register.register_anonymise,
        name="register_anonymise",
    ),
    path(
        "spielerverzeichnis/<uuid:uid>/zusammenfuehren/",
        register.register_merge,
        name="register_merge",
    ),
    path("saison/neu/", director.season_create, name="season_create"),
    path("saison/<slug:slug>/", public.season_detail, name="season"),
    path("turnier/neu/", director.event_create, name="event_create"),
    path("turnier/import/", bundles.bundle_import, name="bundle_import"),
    path("turnier/<slug:slug>/", public.event_detail, name="event"),
    path("turnier/<slug:slug>/bearbeiten/", director.event_edit, name="event_edit"),
    path("turnier/<slug:slug>/spieler/", director.event_players, name="event_players"),
    path(
        "turnier/<slug:slug>/spieler/<int:pk>/status/", director.entry_status, name="entry_status"
    ),
    path("turnier/<slug:slug>/spieler/<int:pk>/", director.player_edit, name="player_edit"),
    path(
        "turnier/<slug:slug>/spieler/<int:pk>/entfernen/",
        director.entry_remove,
        name="entry_remove",
    ),
    path(
        "turnier/<slug:slug>/spieler/<int:pk>/zusammenfuehren/",
        director.player_merge,
        name="player_merge",
    ),
    path("turnier/<slug:slug>/paare/", director.event_pair, name="event_pair"),
    path("turnier/<slug:slug>/spieler/import/", paper.import_players, name="import_players"),
    path("turnier/<slug:slug>/anmeldung/", playerday.event_register, name="event_register"),
    path(
        "turnier/<slug:slug>/teilnehmer/", playerday.event_participants, name="event_participants"
    ),
    path("turnier/<slug:slug>/checkin/", playerday.checkin_desk, name="checkin"),
    path("turnier/<slug:slug>/checkin/fehlende/", playerday.remove_missing, name="remove_missing"),
    path("turnier/<slug:slug>/startkarten/", playerday.start_cards, name="start_cards"),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/ergebnisvorlage/",
        paper.result_template,
        name="result_template",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/ergebnisimport/",
        paper.import_results,
        name="import_results",
    ),
    path("turnier/<slug:slug>/rangliste/", public.event_standings, name="event_standings"),
    path("turnier/<slug:slug>/mannschaften/", public.event_teams, name="event_teams"),
    path("turnier/<slug:slug>/paare/rangliste/", public.event_pairs, name="event_pairs"),
    path("turnier/<slug:slug>/statistik/", stats.event_statistics, name="event_statistics"),
    path("turnier/<slug:slug>/beamer/", public.projector, name="projector"),
    path("turnier/<slug:slug>/beamer/zeilen/", public.projector_rows, name="projector_rows"),
    path("turnier/<slug:slug>/wo-sitze-ich/", public.where_do_i_sit, name="where_do_i_sit"),
    path("turnier/<slug:slug>/los/", director.decide_lot, name="decide_lot"),
    path("turnier/<slug:slug>/wiederhergestellt/", director.after_restore, name="after_restore"),
    path("turnier/<slug:slug>/durchgang/neu/", director.round_add, name="round_add"),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/",
        public.round_seating,
        name="round_seating",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/ergebnisse/",
        public.round_results,
        name="round_results",
    ),
    # the round page's buttons, one view each
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/draw/", director.round_draw, name="round_draw"
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/start/",
        director.round_start,
        name="round_start",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/close/",
        director.round_close,
        name="round_close",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/remove/",
        director.round_remove,
        name="round_remove",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/swap/", director.round_swap, name="round_swap"
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/swap_pairs/",
        director.round_swap_pairs,
        name="round_swap_pairs",
    ),
    path("turnier/<slug:slug>/rangliste/druck/", paper.print_standings, name="print_standings"),
    path("turnier/<slug:slug>/regelkarte/", rulecard.rule_card, name="rule_card"),
    path("turnier/<slug:slug>/kartenpunkte/", public.card_points, name="card_points"),
    path("turnier/<slug:slug>/excel/", paper.event_xlsx, name="event_xlsx"),
    path("turnier/<slug:slug>/paket/", bundles.event_bundle, name="event_bundle"),
    path("saison/<slug:slug>/excel/", paper.season_xlsx, name="season_xlsx"),
    path("saison/<slug:slug>/druck/", paper.print_season, name="print_season"),
    path("saison/<slug:slug>/veroeffentlichen/", publishing.season_publish, name="season_publish"),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/druck/tischlisten/",
        paper.print_sheets,
        name="print_sheets",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/druck/sitzplan/",
        paper.print_seating,
        name="print_seating",
    ),
    path("turnier/<slug:slug>/preise/", money.prize_table, name="prize_table"),
    path("turnier/<slug:slug>/abschluss/", money.event_finish, name="event_finish"),
    path("turnier/<slug:slug>/preisverteilung/", money.prize_giving, name="prize_giving"),
    path(
        "turnier/<slug:slug>/preisverteilung/druck/",
        money.print_prize_giving,
        name="print_prize_giving",
    ),
    path("turnier/<slug:slug>/startgeld/", money.fee_list, name="fee_list"),
    path("turnier/<slug:slug>/startgeld/arten/", money.fee_categories, name="fee_categories"),
    path("turnier/<slug:slug>/startgeld/<int:pk>/", money.fee_set, name="fee_set"),
    path("turnier/<slug:slug>/kasse/", money.cash_book, name="cash_book"),
    path(
        "turnier/<slug:slug>/kasse/<int:pk>/entfernen/",
        money.cash_item_remove,
        name="cash_item_remove",
    ),
    path("turnier/<slug:slug>/kasse/druck/", money.print_cash_report, name="print_cash_report"),
    path("tisch/<int:pk>/", sheets.table_sheet, name="table"),
    path("tisch/<int:pk>/vorschau/", sheets.hand_preview, name="hand_preview"),
    path("tisch/<int:pk>/bestaetigen/", sheets.table_confirm, name="table_confirm"),
    path("tisch/<int:pk>/verlauf/", sheets.table_history, name="table_history"),
    path("tisch/<int:pk>/spiel/<int:number>/", sheets.hand_edit, name="hand_edit"),
    path("turnier/<slug:slug>/verlauf/", sheets.event_history, name="event_history"),
    path("t/sw.js", link.service_worker, name="table_service_worker"),
    path("m/<str:token>/", playerday.personal_link, name="personal_link"),
    path("m/<str:token>/confirm/", playerday.personal_confirm, name="personal_confirm"),
    path("m/<str:token>/cancel/", playerday.personal_cancel, name="personal_cancel"),
    path("t/<str:token>/", link.table_link, name="table_link"),
    path("t/<str:token>/vorschau/", link.link_preview, name="link_preview"),
    path("t/<str:token>/senden/", link.link_send, name="link_send"),
    path("t/<str:token>/undo/", link.link_undo, name="link_undo"),
    path("t/<str:token>/submit/", link.link_submit, name="link_submit"),
    path("t/<str:token>/confirm/", link.link_confirm, name="link_confirm"),
    path("tisch/<int:pk>/summen/", sheets.table_totals, name="table_totals"),
    path("tisch/<int:pk>/werten/", director.table_void, name="table_void"),
    path("tisch/<int:pk>/abrechnung/", settlement.table_settlement, name="table_settlement"),
    path("turnier/<slug:slug>/abrechnung/", settlement.event_settlement, name="event_settlement"),
]
