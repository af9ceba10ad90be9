// Projector: ask for the standings every few seconds and swap them in without reloading the page;
// scroll slowly through a long list and start again at the top. The lines come as JSON (rank,
// name, club, figure, marks), written here as text, never as HTML. Each request carries the ETag
// of the lines shown (If-None-Match): while nothing changed the server answers 304 Not Modified
// with no body, and the rows, the scroll position and the network stay as they are.
(function () {
  "use strict";
  var scroller = document.getElementById("scroller");
  var rows = document.getElementById("rows");
  var status = document.getElementById("status");
  var interval = parseInt(scroller.dataset.interval, 10) || 15000;

  function cell(tr, css, text) {
    var td = document.createElement("td");
    if (css) td.className = css;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function line(row, marks) {
    var tr = document.createElement("tr");
    if (row[4].indexOf("withdrawn") >= 0) tr.className = "withdrawn";
    cell(tr, "rank", row[0] + ".");
    var name = cell(tr, "name", row[1]);
    row[4].forEach(function (key) {
      var mark = marks[key], span = document.createElement("span");
      span.className = mark[0];
      span.textContent = mark[1];
      if (mark[2]) span.title = mark[2];
      name.append(" ", span);
    });
    cell(tr, "club", row[2]);
    cell(tr, "num", row[3]);
    return tr;
  }

  function show(data) {
    var lines = data.lines.map(function (row) { return line(row, data.marks); });
    if (!lines.length) {
      var tr = document.createElement("tr");
      cell(tr, "", data.empty).colSpan = 4;
      lines.push(tr);
    }
    rows.replaceChildren.apply(rows, lines);
    status.textContent = data.status;
  }

  function refresh() {
    var headers = rows.dataset.etag ? { "If-None-Match": rows.dataset.etag } : {};
    // "no-store": the answer comes to this script as the server sent it, a 304 included
    fetch(scroller.dataset.url, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (r) {
        if (r.status === 304) return null;
        if (!r.ok) return Promise.reject(r.status);
        rows.dataset.etag = r.headers.get("ETag") || "";
        return r.json();
      })
      .then(function (data) {
        if (data === null) return;
        show(data);
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
  show(JSON.parse(document.getElementById("projector-lines").textContent));
  setInterval(refresh, interval);
  setInterval(step, 40);
})();
