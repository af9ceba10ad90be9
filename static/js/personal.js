// The personal link (issue 29) looks for news every 15 seconds: the browser asks with the page's
// ETag (Cache-Control: no-cache), the server answers 304 until something changed, and a changed
// page replaces the part below the header. Nothing is sent while the page is hidden.
(function () {
  "use strict";
  var box = document.getElementById("personal");
  if (!box || !window.fetch || !window.DOMParser) return;
  var period = (parseInt(box.getAttribute("data-poll"), 10) || 15) * 1000;
  function look() {
    if (document.hidden) return;
    fetch(window.location.pathname, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        if (!text) return;
        var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("personal");
        if (fresh && fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* no network: look again next time */ });
  }
  window.setInterval(look, period);
  document.addEventListener("visibilitychange", look);
})();
