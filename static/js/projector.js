// Projector: ask for the standings every few seconds and swap them in without reloading the page;
// scroll slowly through a long list and start again at the top. Each request carries the ETag of
// the rows shown (If-None-Match): while nothing changed the server answers 304 Not Modified with
// no body, and the rows, the scroll position and the network stay as they are.
(function () {
  "use strict";
  var scroller = document.getElementById("scroller");
  var rows = document.getElementById("rows");
  var status = document.getElementById("status");
  var interval = parseInt(scroller.dataset.interval, 10) || 15000;

  function refresh() {
    var headers = rows.dataset.etag ? { "If-None-Match": rows.dataset.etag } : {};
    // "no-store": the answer comes to this script as the server sent it, a 304 included
    fetch(scroller.dataset.url, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (r) {
        if (r.status === 304) return null;
        if (!r.ok) return Promise.reject(r.status);
        rows.dataset.etag = r.headers.get("ETag") || "";
        return r.text();
      })
      .then(function (html) {
        if (html === null || html === rows.dataset.last) return;
        rows.dataset.last = html;
        rows.innerHTML = html;
        var source = document.getElementById("status-source");
        if (source) status.textContent = source.textContent.trim();
        document.body.dataset.refreshed = String(Date.now());
      })
      .catch(function () { /* the hall's network hiccups: try again next time */ });
  }

  var pause = 0;
  function step() {
    var max = scroller.scrollHeight - scroller.clientHeight;
    if (max > 0) {
      if (pause > 0) { pause -= 1; }
      else if (scroller.scrollTop >= max - 1) { scroller.scrollTop = 0; pause = 120; }
      else { scroller.scrollTop += 1; if (scroller.scrollTop === 0) pause = 120; }
    }
  }
  rows.dataset.last = rows.innerHTML;
  setInterval(refresh, interval);
  setInterval(step, 40);
})();
