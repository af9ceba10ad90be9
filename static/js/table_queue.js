// Table link: games entered at the table survive a dropout of the hall's network (issue 14).
//
// "Save game" sends the game with fetch instead of leaving the page. When the server cannot be
// reached, the game (with its one-time submission key and the number it was entered as) is kept
// in this browser's localStorage, shown under the form as "not sent yet", and the form is ready
// for the next game. The queue is sent in order as soon as the server answers: at once, when the
// browser says it is online again, and on a timer that waits longer after each failure. The
// server stores a game once however often it is sent (the submission key) and only as the number
// it was entered as; a game it refuses (the round closed, the sheet handed in, another phone
// entered that number, the engine rejects it) stays on the phone with the reason, and the games
// after it wait until the table settles it. The page keeps the queue when it is closed: the next
// visit sends it. Plain http:// in the hall allows no service worker; localStorage works there.
// No rules live here: a game waiting on the phone shows "checked when sent", never results.
//
// Every phone is a replica of its table (issue 45): each game of the current round the server
// acknowledged stays in localStorage with its key, number and inputs until the round closes.
// The page (and the answer to each game sent) lists the sheet's games by number and the start
// of their keys; a game held here whose key the sheet lacks (a laptop restored from a copy a few seconds old)
// is put before the queue and sent again, in order, with its key and number, marked as sent
// again. The server stores each key once; a number taken by a different game is the conflict
// above; a game taken back since is forgotten.
//
// localStorage: "cego-queue:<link key>" the games not sent yet (a list, in order);
// "cego-held:<link key>" {"round": <round id>, "games": [the acknowledged games, by number]}.
(function () {
  "use strict";
  var form = document.getElementById("hand-form"); // absent once the sheet takes no games
  var panel = document.getElementById("queue");
  if (!panel || !panel.dataset.sendUrl || !window.localStorage || !window.fetch) return;
  var csrf = panel.querySelector("[name=csrfmiddlewaretoken]").value;

  var statusLine = panel.querySelector(".queue-status");
  var list = panel.querySelector(".queue-items");
  var texts = {};
  document.getElementById("queue-texts").content.querySelectorAll("[data-key]").forEach(function (el) {
    texts[el.dataset.key] = el.textContent.trim();
  });
  var storeKey = "cego-queue:" + panel.dataset.queue;
  var heldKey = "cego-held:" + panel.dataset.queue;
  var round = panel.dataset.round || null; // absent from a page kept by an older release
  var HELD_MAX = 100; // a round has a few dozen games at most
  var dealers = JSON.parse(document.getElementById("dealers").textContent);
  var wanted = panel.dataset.wanted ? parseInt(panel.dataset.wanted, 10) : null;
  var serverNext = parseInt(panel.dataset.number, 10);
  var sending = false;
  var failures = 0;
  var timer = null;
  // the attempt under way, and whether the network came back during it: then it is given up
  // and the queue is sent again at once, not after the timer's wait (up to 30 s)
  var attempt = null;
  var wake = false;

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || []; } catch (e) { return []; }
  }
  function save(items) {
    if (items.length) localStorage.setItem(storeKey, JSON.stringify(items));
    else localStorage.removeItem(storeKey);
  }

  // the games of this round the server acknowledged
  function loadHeld() {
    try {
      var held = JSON.parse(localStorage.getItem(heldKey));
      return held && round && held.round === round ? held.games : [];
    } catch (e) { return []; }
  }
  function saveHeld(games) {
    if (!round) return;
    games.sort(function (a, b) { return a.number - b.number; });
    if (games.length) localStorage.setItem(heldKey, JSON.stringify({ round: round, games: games.slice(-HELD_MAX) }));
    else localStorage.removeItem(heldKey);
  }
  function hold(item, number) {
    var games = loadHeld().filter(function (g) { return g.submission !== item.submission; });
    games.push({ submission: item.submission, number: number, game: item.game, fields: item.fields });
    saveHeld(games);
  }
  function forgetHeld(submission) {
    saveHeld(loadHeld().filter(function (g) { return g.submission !== submission; }));
  }

  // a page of a round being played forgets what this phone holds of other rounds; a page of a
  // closed round forgets that round's games (an old round's page leaves the current one alone,
  // and a server restored to before the round's start keeps them for when it starts again)
  function forgetOldRounds() {
    if (!round) return;
    var playing = panel.dataset.roundStatus === "playing";
    var closed = panel.dataset.roundStatus === "closed";
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var key = localStorage.key(i);
      if (!key || key.indexOf("cego-held:") !== 0) continue;
      var held = null;
      try { held = JSON.parse(localStorage.getItem(key)); } catch (e) { held = null; }
      var same = held && held.round === round;
      if (!held || (playing && !same) || (closed && same)) localStorage.removeItem(key);
    }
  }

  // ``stored``: the sheet's games as [number, the start of the key]. The acknowledged games it
  // lacks go before the queue, to be sent again in order; true if there were any
  function resendMissing(stored) {
    if (!stored || !round || panel.dataset.enter !== "1") return false;
    var have = {};
    var shown = 13; // "xxxxxxxx-xxxx" of a key (views/common.py KEY_SHOWN)
    stored.forEach(function (pair) { if (pair[1]) have[pair[1]] = true; });
    var items = load();
    var queued = {};
    items.forEach(function (i) { queued[i.submission] = true; });
    var missing = loadHeld().filter(function (g) {
      return !have[g.submission.slice(0, shown)] && !queued[g.submission];
    });
    if (!missing.length) return false;
    // a game refused because the sheet lacked the games before it may fit once they are back
    items.forEach(function (i) {
      if (i.refused && i.refused.kind === "conflict" && !i.refused.server) i.refused = null;
    });
    var again = missing.map(function (g) {
      return { submission: g.submission, number: g.number, game: g.game, fields: g.fields, refused: null, resend: true };
    });
    save(again.concat(items));
    return true;
  }

  // a version 4 UUID from the browser's random numbers (crypto.randomUUID needs https)
  function uuid4() {
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  // the game in words as the table typed it: each shown choice and number with its label
  function describe() {
    var parts = [];
    form.querySelectorAll(".field[data-field]").forEach(function (div) {
      if (div.hidden) return;
      div.querySelectorAll("select, input").forEach(function (el) {
        if (el.disabled || el.type === "hidden") return;
        // a checkbox sits inside its label (no "for"): its words are the label's own text
        var label = form.querySelector("label[for='" + el.id + "']") || el.closest("label");
        var name = label ? label.textContent.replace(/[:\s]+$/, "").trim() : el.name;
        if (el.tagName === "SELECT") {
          if (el.value !== "") parts.push(el.options[el.selectedIndex].text);
        } else if (el.type === "checkbox") {
          if (el.checked) parts.push(name);
        } else if (el.value !== "") {
          parts.push(name + " " + el.value);
        }
      });
    });
    return parts.join(" · ");
  }

  function fields() {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "action") pairs.push([name, value]);
    });
    return pairs;
  }

  function nextNumber(items) {
    var n = serverNext;
    items.forEach(function (item) { n = Math.max(n, item.number + 1); });
    return n;
  }

  // where a game's form depends on its number (the five-seat dealer sits out), the page brings
  // the forms of the next games, rendered by the server: the one for game n is put in place
  var period = parseInt(panel.dataset.period, 10) || 1;
  var shown = parseInt(panel.dataset.number, 10);
  function inputsFor(n) {
    var ahead = form.querySelectorAll("template.inputs-ahead");
    if (!ahead.length) return null;
    var first = parseInt(ahead[0].dataset.number, 10);
    var k = first + (((n - first) % period) + period) % period;
    return form.querySelector("template.inputs-ahead[data-number='" + k + "']");
  }
  function showInputs(n) {
    if (n === shown) return;
    var template = inputsFor(n);
    var current = form.querySelector(".hand-inputs");
    if (!template || !current) return;
    current.replaceWith(template.content.firstElementChild.cloneNode(true));
    shown = n;
    form.dispatchEvent(new Event("hand-form:fresh"));
  }

  // the form, ready for the game after the ones kept on the phone
  function readyForm(items) {
    if (!form) return;
    var n = nextNumber(items);
    showInputs(n);
    var title = form.querySelector(".game-title");
    if (title && texts["game-title"]) title.textContent = texts["game-title"].replace("§", n);
    var dealer = form.querySelector(".dealer-name");
    if (dealer && dealers[n] !== undefined) dealer.textContent = dealers[n];
    form.hidden = wanted !== null && n > wanted;
  }

  function freshForm() {
    form.reset();
    form.elements.submission.value = uuid4();
    form.dispatchEvent(new Event("hand-form:fresh"));
  }

  function text(tag, className, content) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    el.textContent = content;
    return el;
  }

  function render() {
    var items = load();
    list.innerHTML = "";
    items.forEach(function (item, index) {
      var li = document.createElement("li");
      li.className = item.refused ? "refused" : "waiting";
      li.dataset.number = item.number;
      var head = document.createElement("p");
      head.appendChild(text("strong", "", texts["game-title"].replace("§", item.number) + " "));
      head.appendChild(text("span", item.refused ? "tag refused" : "tag waiting", item.refused ? texts.refused : texts.waiting));
      if (item.resend) head.appendChild(text("span", "tag resent", texts.resending));
      li.appendChild(head);
      li.appendChild(text("p", "game", item.game));
      if (!item.refused) {
        li.appendChild(text("small", "", texts.checked));
      } else {
        li.appendChild(text("p", "error", item.refused.message));
        if (item.refused.server) {
          var both = document.createElement("dl");
          both.appendChild(text("dt", "", texts.server));
          both.appendChild(text("dd", "server-version", item.refused.server.number + " " + item.refused.server.game + " (" + item.refused.server.results + ")"));
          both.appendChild(text("dt", "", texts.mine));
          both.appendChild(text("dd", "phone-version", item.number + " " + item.game));
          li.appendChild(both);
        }
        var actions = document.createElement("p");
        actions.className = "actions";
        if (item.refused.kind === "conflict") {
          var again = text("button", "again", texts.again);
          again.type = "button";
          again.addEventListener("click", function () { settle(index, true); });
          actions.appendChild(again);
        }
        var discard = text("button", "danger discard", texts.discard);
        discard.type = "button";
        discard.addEventListener("click", function () { settle(index, false); });
        actions.appendChild(discard);
        li.appendChild(actions);
      }
      list.appendChild(li);
    });
    panel.hidden = items.length === 0 && !statusLine.textContent;
    readyForm(items);
  }

  function status(message, kind) {
    statusLine.textContent = message;
    statusLine.className = "queue-status " + (kind || "");
    panel.hidden = !message && load().length === 0;
  }

  // a refused game: send it again as the sheet's next game, or drop it; the games after it are
  // numbered on from there
  function settle(index, again) {
    var items = load();
    var item = items[index];
    var start = item.number;
    if (again) {
      start = item.refused.next_number || serverNext;
      item.refused = null;
    } else {
      items.splice(index, 1);
      forgetHeld(item.submission); // discarded: not sent again after the next load either
    }
    for (var i = index; i < items.length; i++) {
      if (i === index && !again) start = Math.min(start, items[i].number);
      items[i].number = start + (i - index);
    }
    save(items);
    render();
    flush();
  }

  function schedule() {
    clearTimeout(timer);
    var wait = Math.min(30000, 1000 * Math.pow(2, Math.min(failures, 5)));
    timer = setTimeout(flush, wait);
  }

  // send the first game of the queue; ``answered`` (for a game typed just now) hears "stored",
  // "invalid" (the form has an error), "refused" or "offline"
  function flush(answered) {
    var tell = answered || function () {};
    if (sending) return;
    var items = load();
    var first = items[0];
    if (!first) return;
    if (first.refused) { status(texts.stopped, "error"); return; }
    sending = true;
    // after a failed attempt the line keeps saying "no network" until a game gets through
    if (!failures) status(texts.sending, "");
    var body = new FormData();
    body.append("csrfmiddlewaretoken", csrf);
    first.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("number", first.number);
    if (first.resend) body.append("resend", "1");
    body.append("waiting", items.length);
    body.append("refused", items.filter(function (i) { return i.refused; }).length);
    var abort = new AbortController();
    attempt = abort;
    var limit = setTimeout(function () { abort.abort(); }, 15000);
    fetch(panel.dataset.sendUrl, { method: "POST", body: body, credentials: "same-origin", signal: abort.signal })
      .then(function (r) {
        return r.json().then(function (json) { return { status: r.status, json: json }; });
      })
      .then(function (answer) {
        clearTimeout(limit);
        sending = false;
        failures = 0;
        var now = load();
        var json = answer.json;
        if (json.ok) {
          now = now.filter(function (i) { return i.submission !== first.submission; });
          save(now);
          hold(first, json.number);
          serverNext = json.next_number;
          if (resendMissing(json.stored)) now = load();
          if (!now.length) {
            // everything is on the server: show its sheet, with the message and a fresh form
            // for the next game as the server builds it
            tell("stored");
            if (!answered) sessionStorage.setItem(storeKey + ":sent", "1");
            window.location.replace(window.location.href.split("#")[0]);
            return;
          }
          swap(json);
          render();
          flush();
        } else if (json.kind === "invalid" && answered) {
          tell("invalid");
        } else if (json.kind === "taken_back" && first.resend) {
          // the server had this game and it was taken back since: nothing to send again
          save(now.filter(function (i) { return i.submission !== first.submission; }));
          forgetHeld(first.submission);
          render();
          if (load().length) flush();
          else status("", "");
        } else {
          if (json.next_number) serverNext = json.next_number;
          now.forEach(function (i) {
            if (i.submission === first.submission) i.refused = json;
          });
          save(now); // kept with the reason: the page shows it again after loading
          tell("refused");
          if (navigator.onLine) {
            // the sheet has changed under this phone (another phone or the scorer entered a
            // game, the round was closed): show the server's page as it is now, with the
            // refused game and those after it from this phone's storage
            window.location.replace(window.location.href.split("#")[0]);
          } else {
            // the network went away with the answer: this page stays, with the refusal
            swap(json);
            render();
            status(texts.stopped, "error");
          }
        }
      })
      .catch(function () {
        clearTimeout(limit);
        sending = false;
        failures += 1;
        tell("offline");
        render();
        status(texts.offline, "offline");
        if (wake) {
          wake = false;
          failures = 0;
          flush();
        } else {
          schedule();
        }
      });
  }

  // the server's totals and sheet, while games are still waiting here
  function swap(json) {
    var totals = document.getElementById("link-totals");
    var sheet = document.getElementById("link-sheet");
    if (totals && json.totals) totals.innerHTML = json.totals;
    if (sheet && json.sheet) sheet.innerHTML = json.sheet;
  }

  if (form) form.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (button && button.value === "preview") {
      if (navigator.onLine) return; // the server shows the result
      event.preventDefault();
      status(texts.checked, "");
      return;
    }
    event.preventDefault();
    var items = load();
    var alone = items.length === 0;
    items.push({
      submission: form.elements.submission.value,
      number: nextNumber(items),
      game: describe(),
      fields: fields(),
      refused: null,
    });
    save(items); // kept before anything is sent: a dropout now loses nothing
    if (!alone) {
      freshForm();
      render();
      flush();
      return;
    }
    // nothing waiting: send this game at once, and keep the form as typed until the server
    // has answered; a typing error is then shown at its field by the server, as without script
    flush(function (answer) {
      if (answer === "invalid") {
        save([]);
        form.submit();
      } else if (answer === "offline" || (answer === "refused" && !navigator.onLine)) {
        freshForm();
        render();
      } // stored or refused: the page loads again from the server
    });
  });

  window.addEventListener("online", function () {
    failures = 0;
    if (sending && attempt) {
      // an attempt begun without a network may hang until its limit (15 s): give it up
      wake = true;
      attempt.abort();
    } else {
      flush();
    }
  });
  // over HTTPS a service worker keeps this page for a reload during a dropout (/t/sw.js)
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(panel.dataset.worker).catch(function () {});
  }
  forgetOldRounds();
  var storedGames = document.getElementById("stored-games");
  resendMissing(storedGames ? JSON.parse(storedGames.textContent) : null);
  render();
  if (sessionStorage.getItem(storeKey + ":sent")) {
    // the games this phone held are all on the sheet now
    sessionStorage.removeItem(storeKey + ":sent");
    status(texts.sent, "sent");
  }
  if (load().length) flush();
})();
