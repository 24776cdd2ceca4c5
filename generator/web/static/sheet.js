// The sheet form: every change asks the server for a fresh preview of the sheet (SVG), and shows
// the library's own message when a value is refused, right below the input it is about. The
// server makes everything; this only asks.
"use strict";

(function () {
  const form = document.getElementById("sheet-form");
  if (!form) return;
  const game = form.dataset.game;
  const image = document.getElementById("preview");
  const message = document.getElementById("message");
  const specText = document.getElementById("spec-text");
  const pages = document.getElementById("pages");
  const pageChoice = document.getElementById("page-choice");
  const pageInput = document.getElementById("in-page");
  const box = document.getElementById("preview-box");
  const sizeButton = document.getElementById("preview-size");
  const state = document.getElementById("preview-state");
  // Where a refusal about no single input goes: the top of the form.
  const home = document.createElement("span");
  home.hidden = true;
  form.querySelector("h2").after(home);
  let asked = 0; // the number of the latest request: older answers are dropped
  let timer = null;
  let valid = true;
  let shownUrl = null;
  let lastField = null; // the input's box the user changed last
  // A refusal the server drew with the page stays until the user changes something.
  let keepServerMessage = form.dataset.refused === "yes";

  function query() {
    const params = new URLSearchParams(new FormData(form));
    params.delete("format");
    return params;
  }

  function describe(input, on) {
    const ids = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    const kept = ids.filter((id) => id !== "message");
    if (on) kept.push("message");
    if (kept.length) input.setAttribute("aria-describedby", kept.join(" "));
    else input.removeAttribute("aria-describedby");
  }

  function unmark() {
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    form.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
    form.querySelectorAll("[aria-describedby~='message']").forEach((el) => describe(el, false));
  }

  // The message below the input ``field`` names, else below the one changed last, else at the
  // top of the form; it is scrolled into sight when it is not in it.
  function place(field) {
    const input = field ? form.querySelector(`[name="${CSS.escape(field)}"]`) : null;
    const around = input ? input.closest(".field, .download-row") : lastField;
    if (input) {
      input.setAttribute("aria-invalid", "true");
      describe(input, true);
    }
    if (around) {
      around.classList.add("has-error");
      if (around.classList.contains("download-row")) around.after(message);
      else around.append(message);
    } else {
      home.after(message);
    }
  }

  function showError(text, field) {
    valid = false;
    box.classList.add("refused");
    state.hidden = false;
    const changed = message.hidden || message.textContent !== text;
    message.textContent = text;
    message.hidden = false;
    unmark();
    place(field);
    if (changed) {
      const r = message.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) message.scrollIntoView({ block: "nearest" });
    }
  }

  function clearError() {
    valid = true;
    box.classList.remove("refused");
    state.hidden = true;
    if (keepServerMessage) return;
    message.hidden = true;
    message.textContent = "";
    unmark();
    home.after(message);
  }

  function showPages(count) {
    if (count <= 1) {
      pages.hidden = true;
      return;
    }
    if (pageChoice.options.length !== count) {
      pageChoice.replaceChildren();
      for (let n = 1; n <= count; n += 1) pageChoice.add(new Option(String(n), String(n)));
      pageChoice.value = pageInput.value;
    }
    pages.hidden = false;
  }

  async function refresh() {
    const number = ++asked;
    box.classList.add("busy");
    try {
      const response = await fetch(`/api/preview/${encodeURIComponent(game)}?${query()}`);
      if (number !== asked) return;
      if (!response.ok) {
        let text = `the server refused the settings (${response.status})`;
        let field = null;
        try {
          const body = await response.json();
          text = body.error || text;
          field = body.field;
        } catch (ignored) { /* not JSON: keep the status */ }
        keepServerMessage = false;
        showError(text, field);
        return;
      }
      const blob = await response.blob();
      if (number !== asked) return;
      clearError();
      if (shownUrl) URL.revokeObjectURL(shownUrl);
      shownUrl = URL.createObjectURL(blob);
      image.src = shownUrl;
      image.dataset.spec = decodeURIComponent(response.headers.get("x-spec") || "");
      image.alt = `Preview of the sheet ${image.dataset.spec}`;
      specText.textContent = image.dataset.spec;
      const record = document.getElementById("record-link");
      if (record) record.href = `/record/${encodeURIComponent(game)}?${query()}`;
      showPages(Number(response.headers.get("x-pages") || "1"));
    } catch (error) {
      if (number === asked) showError("the page cannot reach papergames: is it still running?");
    } finally {
      if (number === asked) box.classList.remove("busy");
    }
  }

  function soon(event) {
    keepServerMessage = false;
    const around = event && event.target.closest ? event.target.closest(".field") : null;
    if (around) lastField = around;
    clearTimeout(timer);
    timer = setTimeout(refresh, 200);
  }

  form.addEventListener("input", soon);
  form.addEventListener("change", soon);
  document.getElementById("new-seed").addEventListener("click", () => {
    const numbers = new Uint32Array(1);
    crypto.getRandomValues(numbers);
    document.getElementById("in-seed").value = String(numbers[0] % 1000000);
    keepServerMessage = false;
    lastField = document.getElementById("field-seed");
    refresh();
  });
  pageChoice.addEventListener("change", () => {
    pageInput.value = pageChoice.value;
    refresh();
  });
  if (sizeButton) {
    sizeButton.hidden = false;
    sizeButton.addEventListener("click", () => {
      const big = box.classList.toggle("big");
      sizeButton.setAttribute("aria-pressed", String(big));
      sizeButton.textContent = big ? "Shrink" : "Enlarge";
    });
  }
  form.addEventListener("submit", (event) => {
    if (!valid) {
      event.preventDefault();
      message.hidden = false;
      message.scrollIntoView({ block: "nearest" });
    }
  });
  refresh();
})();
