// Hand form: show only the inputs the chosen contract needs, and the engine's results as you type.
// Without JavaScript every input is shown and "Show result" asks the server; nothing depends on this.
(function () {
  "use strict";
  var form = document.getElementById("hand-form");
  if (!form) return;

  function value(name) {
    var el = form.elements[name];
    return el ? el.value : "";
  }

  // A field the contract does not need is hidden: each .field may carry data-show-when, the
  // hand form's rule as JSON ({"contract": ["bettel", "piccolo"]}: shown while the contract is
  // one of these). The rules come from the game's hand form; this script knows no game.
  function visible(div) {
    var rule = div.dataset.showWhen;
    if (!rule) return true;
    var wanted = JSON.parse(rule);
    return Object.keys(wanted).every(function (name) {
      return wanted[name].indexOf(value(name)) >= 0;
    });
  }

  function update() {
    form.querySelectorAll(".field[data-field]").forEach(function (div) {
      div.hidden = !visible(div);
    });
  }

  var timer = null;
  var asked = 0; // the preview shown is the answer to the latest question only
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var data = new FormData(form);
      var question = ++asked;
      fetch(form.dataset.previewUrl, { method: "POST", body: data, credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (json) {
          if (question !== asked) return;
          var box = document.getElementById("preview");
          form.querySelectorAll(".live-error").forEach(function (e) { e.remove(); });
          if (json.ok) {
            // each player's name with the game's result, as the sheet would get it; a list that
            // wraps, so that a phone shows every player without scrolling sideways
            var names = JSON.parse(document.getElementById("preview-players").textContent);
            var list = document.createElement("ul");
            list.className = "preview-results";
            json.results.forEach(function (v, i) {
              var item = document.createElement("li");
              var who = document.createElement("span");
              who.className = "who";
              who.textContent = names[i] || "";
              var points = document.createElement("strong");
              points.textContent = v > 0 ? "+" + v : v < 0 ? "\u2212" + (-v) : "0";
              item.appendChild(who);
              item.appendChild(document.createTextNode(" "));
              item.appendChild(points);
              list.appendChild(item);
            });
            box.replaceChildren(list);
          } else {
            box.innerHTML = "";
            Object.keys(json.errors).forEach(function (name) {
              var div = form.querySelector(".field[data-field='" + name + "']");
              var msg = document.createElement("div");
              msg.className = "error live-error";
              msg.textContent = json.errors[name].join(" ");
              (div || box).appendChild(msg);
            });
          }
        })
        .catch(function () { /* offline for a moment: the server checks again on save */ });
    }, 250);
  }

  // A checkbox whose field carries data-clears (Cego's Berg: no trick, so no card points to type)
  // clears the named input when ticked and disables it; the server refuses both together too.
  function clears() {
    form.querySelectorAll(".field[data-clears]").forEach(function (div) {
      var box = div.querySelector("input[type=checkbox]"), target = form.elements[div.dataset.clears];
      if (!box || !target) return;
      var field = target.closest(".field");
      if (box.checked && target.value !== "") target.value = "";
      target.disabled = box.checked;
      if (field) field.classList.toggle("disabled", box.checked);
    });
  }

  // Card buttons (Hennes Sibbe): a row of buttons under each card field; a tap writes the card's word in
  // the short form, so typing and tapping can be mixed and the server reads one format.
  var cardButtons = document.getElementById("card-buttons");
  if (cardButtons) {
    form.querySelectorAll("input[data-cards]").forEach(function (input) {
      var group = cardButtons.content.firstElementChild.cloneNode(true);
      var label = form.querySelector("label[for='" + input.id + "']");
      if (label) group.setAttribute("aria-label", label.textContent.replace(/:\s*$/, ""));
      if (input.dataset.cards === "colours") {
        group.querySelectorAll("button.joker").forEach(function (b) { b.remove(); });
      }
      group.addEventListener("click", function (event) {
        var button = event.target.closest("button");
        if (!button) return;
        var words = input.value.trim() ? input.value.trim().split(/\s+/) : [];
        if (button.dataset.word) words.push(button.dataset.word); else words.pop();
        input.value = words.join(" ");
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      input.insertAdjacentElement("afterend", group);
    });
  }

  form.addEventListener("change", function () { update(); clears(); preview(); });
  form.addEventListener("input", preview);
  // The phone's queue (table_queue.js) empties the form for the next game, or puts in the next
  // game's inputs: the fields of an empty form are shown, and no preview, which would only say
  // that a field is required before anyone typed.
  form.addEventListener("hand-form:fresh", function () {
    clearTimeout(timer);
    asked += 1;
    update();
    clears();
    form.querySelectorAll(".live-error").forEach(function (e) { e.remove(); });
    var box = document.getElementById("preview");
    if (box) box.innerHTML = "";
  });
  update();
  clears();
  // a correction opens with the game as stored: its result is shown at once, and again as the
  // scorer changes it
  if (form.dataset.previewNow !== undefined) preview();

  // The card counter has a scope of its own: its question count is not the preview's (a preview
  // asked while the counter's answer is on its way must not make that answer look outdated).
  function cardCounter(counter) {
    var result = document.getElementById("counter-result");
    var note = document.getElementById("counter-note");
    var points = null;
    var refused = ""; // the server's reason why these points cannot go into the form (a half)
    var asked = 0; // answers can overtake each other: only the one to the latest counts is shown
    var waiting = null;
    function count(tries) {
      var ask = ++asked;
      var params = new URLSearchParams();
      counter.querySelectorAll("input").forEach(function (i) { if (i.value) params.append(i.name, i.value); });
      fetch(counter.dataset.url + "?" + params.toString(), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (json) {
          if (ask !== asked) return;
          result.textContent = json.ok ? json.points : json.error;
          points = json.ok ? json.value : null;
          refused = json.ok ? json.carry_refused || "" : "";
          note.hidden = true;
        })
        .catch(function () {
          // a dropped connection: ask once more for the same counts, then leave the figure blank
          if (ask !== asked) return;
          if (tries > 0) { count(tries - 1); return; }
          result.textContent = "?";
          points = null;
        });
    }
    counter.addEventListener("input", function () {
      // one question when the typing pauses; answers to older counts are never shown
      clearTimeout(waiting);
      waiting = setTimeout(function () { count(1); }, 120);
    });
    document.getElementById("counter-use").addEventListener("click", function () {
      var target = form.elements[counter.dataset.target];
      if (refused) {
        // said, never rounded
        note.textContent = refused;
        note.hidden = false;
        return;
      }
      if (points !== null && Number.isInteger(points) && target && !target.disabled) {
        target.value = points;
        preview();
      }
    });
  }
  var counter = document.getElementById("card-counter");
  if (counter) cardCounter(counter);
})();
