// Event form: show the rule settings of the chosen game only (without JavaScript all are shown;
// the server stores only the chosen game's settings).
(function () {
  "use strict";
  var form = document.getElementById("event-form");
  if (!form) return;
  function update() {
    var game = form.elements.game.value;
    form.querySelectorAll(".rules-group").forEach(function (group) {
      group.hidden = group.dataset.game !== game;
    });
  }
  form.elements.game.addEventListener("change", update);
  update();
})();
