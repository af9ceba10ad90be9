{% load static %}// The table link's service worker (issue 14), where the app is served over HTTPS (a secure context;
// plain http:// on the hall's network allows none, and the page's own queue works without it).
// Each table link page this worker serves is kept: reloaded during a dropout, it comes from here,
// with its queue of games in the browser's storage. (From the link's second load on: the worker is
// installed by the first, and the page reloads after every game saved. It never asks the server
// for a page by itself: that answer would take the page's message, "Game 3 saved", away from the
// phone.) The page is always asked of the network first, so a
// phone with a network never sees an old page; posts are never touched (the page's queue decides
// what happens to a game that could not be sent).
"use strict";
var CACHE = "table-link-{{ version }}";
var ASSETS = [
  "{% static 'css/app.css' %}",
  "{% static 'js/hand_form.js' %}",
  "{% static 'js/table_queue.js' %}",
  "{% static 'js/scroll_regions.js' %}",
  "{% static 'img/favicon.svg' %}"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      }).catch(function () {
        return caches.match(request).then(function (kept) { return kept || Response.error(); });
      })
    );
    return;
  }
  if (ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(
      fetch(request).catch(function () { return caches.match(request); })
    );
  }
});
