// The check form: say that a photo is being read while the server reads it.
"use strict";

(function () {
  const form = document.getElementById("check-form");
  if (!form) return;
  const reading = document.getElementById("reading");
  const button = document.getElementById("check");
  form.addEventListener("submit", () => {
    reading.hidden = false;
    button.disabled = true;
  });
  // Coming back to the page from the browser's history shows the form ready again.
  window.addEventListener("pageshow", () => {
    reading.hidden = true;
    button.disabled = false;
  });
})();
