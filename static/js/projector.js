// Projector: fetch the standings every few seconds and swap them in without reloading the page;
// scroll slowly through a long list and start again at the top.
(function () {
  "use strict";
  var scroller = document.getElementById("scroller");
  var rows = document.getElementById("rows");
  var status = document.getElementById("status");
  var interval = parseInt(scroller.dataset.interval, 10) || 15000;

  function refresh() {
    fetch(scroller.dataset.url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (html === rows.dataset.last) return;
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
