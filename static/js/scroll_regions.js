// On a phone, wide lists and the table sheet scroll sideways inside themselves (app.css). A
// keyboard reaches such a region only when it can take focus (WCAG 2.1.1; axe-core's
// "scrollable-region-focusable"), so each one that really scrolls becomes a tab stop, and stops
// being one when the window is wide enough again. Without JavaScript nothing else changes.
(function () {
  "use strict";
  var SELECTOR = ".sheet-wrap, table.list, table.standings";

  function mark() {
    document.querySelectorAll(SELECTOR).forEach(function (region) {
      var scrolls = region.scrollWidth > region.clientWidth + 1;
      if (scrolls && !region.hasAttribute("tabindex")) {
        region.setAttribute("tabindex", "0");
        region.dataset.scrollRegion = "1";
      } else if (!scrolls && region.dataset.scrollRegion) {
        region.removeAttribute("tabindex");
        delete region.dataset.scrollRegion;
      }
    });
  }

  mark();
  var pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(mark, 150);
  });
})();
