from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import path
from django.utils.functional import lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from tournament import views

urlpatterns = [
    path("", views.home, name="home"),
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
    path("hilfe/", views.handbook_page, {"language": "de"}, name="handbook"),
    path("hilfe/img/<str:name>", views.handbook_image, {"language": "de"}, name="handbook_image"),
    path("hilfe/<slug:chapter>/", views.handbook_page, {"language": "de"}, name="handbook_chapter"),
    path("help/", views.handbook_page, {"language": "en"}, name="guide"),
    path("help/img/<str:name>", views.handbook_image, {"language": "en"}, name="guide_image"),
    path("help/<slug:chapter>/", views.handbook_page, {"language": "en"}, name="guide_chapter"),
    path("spieler/<uuid:uid>/", views.player_page, name="player"),
    path("wertung/", views.rating_page, name="rating"),
    path("wertung/<slug:game>/", views.rating_page, name="rating_game"),
    path("spielerverzeichnis/", views.register, name="register"),
    path("spielerverzeichnis/<uuid:uid>/", views.register_player, name="register_player"),
    path(
        "spielerverzeichnis/<uuid:uid>/zusammenfuehren/",
        views.register_merge,
        name="register_merge",
    ),
    path("saison/neu/", views.season_create, name="season_create"),
    path("saison/<slug:slug>/", views.season_detail, name="season"),
    path("turnier/neu/", views.event_create, name="event_create"),
    path("turnier/import/", views.bundle_import, name="bundle_import"),
    path("turnier/<slug:slug>/", views.event_detail, name="event"),
    path("turnier/<slug:slug>/bearbeiten/", views.event_edit, name="event_edit"),
    path("turnier/<slug:slug>/spieler/", views.event_players, name="event_players"),
    path("turnier/<slug:slug>/spieler/<int:pk>/status/", views.entry_status, name="entry_status"),
    path("turnier/<slug:slug>/spieler/<int:pk>/", views.player_edit, name="player_edit"),
    path(
        "turnier/<slug:slug>/spieler/<int:pk>/entfernen/", views.entry_remove, name="entry_remove"
    ),
    path(
        "turnier/<slug:slug>/spieler/<int:pk>/zusammenfuehren/",
        views.player_merge,
        name="player_merge",
    ),
    path("turnier/<slug:slug>/paare/", views.event_pair, name="event_pair"),
    path("turnier/<slug:slug>/spieler/import/", views.import_players, name="import_players"),
    path("turnier/<slug:slug>/anmeldung/", views.event_register, name="event_register"),
    path("turnier/<slug:slug>/teilnehmer/", views.event_participants, name="event_participants"),
    path("turnier/<slug:slug>/checkin/", views.checkin_desk, name="checkin"),
    path("turnier/<slug:slug>/checkin/fehlende/", views.remove_missing, name="remove_missing"),
    path("turnier/<slug:slug>/startkarten/", views.start_cards, name="start_cards"),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/ergebnisvorlage/",
        views.result_template,
        name="result_template",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/ergebnisimport/",
        views.import_results,
        name="import_results",
    ),
    path("turnier/<slug:slug>/rangliste/", views.event_standings, name="event_standings"),
    path("turnier/<slug:slug>/mannschaften/", views.event_teams, name="event_teams"),
    path("turnier/<slug:slug>/paare/rangliste/", views.event_pairs, name="event_pairs"),
    path("turnier/<slug:slug>/statistik/", views.event_statistics, name="event_statistics"),
    path("turnier/<slug:slug>/beamer/", views.projector, name="projector"),
    path("turnier/<slug:slug>/beamer/zeilen/", views.projector_rows, name="projector_rows"),
    path("turnier/<slug:slug>/wo-sitze-ich/", views.where_do_i_sit, name="where_do_i_sit"),
    path("turnier/<slug:slug>/los/", views.decide_lot, name="decide_lot"),
    path("turnier/<slug:slug>/durchgang/neu/", views.round_add, name="round_add"),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/",
        views.round_seating,
        name="round_seating",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/ergebnisse/",
        views.round_results,
        name="round_results",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/<str:action>/",
        views.round_action,
        name="round_action",
    ),
    path("turnier/<slug:slug>/rangliste/druck/", views.print_standings, name="print_standings"),
    path("turnier/<slug:slug>/regelkarte/", views.rule_card, name="rule_card"),
    path("turnier/<slug:slug>/kartenpunkte/", views.card_points, name="card_points"),
    path("turnier/<slug:slug>/excel/", views.event_xlsx, name="event_xlsx"),
    path("turnier/<slug:slug>/paket/", views.event_bundle, name="event_bundle"),
    path("saison/<slug:slug>/excel/", views.season_xlsx, name="season_xlsx"),
    path("saison/<slug:slug>/druck/", views.print_season, name="print_season"),
    path("saison/<slug:slug>/veroeffentlichen/", views.season_publish, name="season_publish"),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/druck/tischlisten/",
        views.print_sheets,
        name="print_sheets",
    ),
    path(
        "turnier/<slug:slug>/durchgang/<int:number>/druck/sitzplan/",
        views.print_seating,
        name="print_seating",
    ),
    path("turnier/<slug:slug>/preise/", views.prize_table, name="prize_table"),
    path("turnier/<slug:slug>/abschluss/", views.event_finish, name="event_finish"),
    path("turnier/<slug:slug>/preisverteilung/", views.prize_giving, name="prize_giving"),
    path(
        "turnier/<slug:slug>/preisverteilung/druck/",
        views.print_prize_giving,
        name="print_prize_giving",
    ),
    path("turnier/<slug:slug>/startgeld/", views.fee_list, name="fee_list"),
    path("turnier/<slug:slug>/startgeld/arten/", views.fee_categories, name="fee_categories"),
    path("turnier/<slug:slug>/startgeld/<int:pk>/", views.fee_set, name="fee_set"),
    path("turnier/<slug:slug>/kasse/", views.cash_book, name="cash_book"),
    path(
        "turnier/<slug:slug>/kasse/<int:pk>/entfernen/",
        views.cash_item_remove,
        name="cash_item_remove",
    ),
    path("turnier/<slug:slug>/kasse/druck/", views.print_cash_report, name="print_cash_report"),
    path("tisch/<int:pk>/", views.table_sheet, name="table"),
    path("tisch/<int:pk>/vorschau/", views.hand_preview, name="hand_preview"),
    path("tisch/<int:pk>/bestaetigen/", views.table_confirm, name="table_confirm"),
    path("tisch/<int:pk>/verlauf/", views.table_history, name="table_history"),
    path("tisch/<int:pk>/spiel/<int:number>/", views.hand_edit, name="hand_edit"),
    path("turnier/<slug:slug>/verlauf/", views.event_history, name="event_history"),
    path("t/sw.js", views.service_worker, name="table_service_worker"),
    path("m/<str:token>/", views.personal_link, name="personal_link"),
    path("m/<str:token>/<str:action>/", views.personal_action, name="personal_action"),
    path("t/<str:token>/", views.table_link, name="table_link"),
    path("t/<str:token>/vorschau/", views.link_preview, name="link_preview"),
    path("t/<str:token>/senden/", views.link_send, name="link_send"),
    path("t/<str:token>/<str:action>/", views.link_action, name="link_action"),
    path("tisch/<int:pk>/summen/", views.table_totals, name="table_totals"),
    path("tisch/<int:pk>/werten/", views.table_void, name="table_void"),
    path("tisch/<int:pk>/abrechnung/", views.table_settlement, name="table_settlement"),
    path("turnier/<slug:slug>/abrechnung/", views.event_settlement, name="event_settlement"),
]
