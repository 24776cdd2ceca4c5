// The sheet form: every change asks the server for a fresh preview of the sheet (SVG), and shows
// the library's own message when a value is refused. The server makes everything; this only asks.
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
  const box = image.parentElement;
  let asked = 0; // the number of the latest request: older answers are dropped
  let timer = null;
  let valid = true;
  let shownUrl = null;

  function query() {
    const params = new URLSearchParams(new FormData(form));
    params.delete("format");
    return params;
  }

  function showError(text, field) {
    valid = false;
    message.textContent = text;
    message.hidden = false;
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    if (field) {
      const input = form.querySelector(`[name="${CSS.escape(field)}"]`);
      if (input) input.setAttribute("aria-invalid", "true");
    }
  }

  function clearError() {
    valid = true;
    message.hidden = true;
    message.textContent = "";
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
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
        showError(text, field);
        return;
      }
      const blob = await response.blob();
      if (number !== asked) return;
      clearError();
      if (shownUrl) URL.revokeObjectURL(shownUrl);
      shownUrl = URL.createObjectURL(blob);
      image.src = shownUrl;
      image.dataset.spec = response.headers.get("x-spec") || "";
      specText.textContent = image.dataset.spec;
      const record = document.getElementById("record-link");
      if (record) record.href = `/record/${encodeURIComponent(game)}?${query()}`;
      const pack = document.getElementById("pack-link");
      if (pack) pack.href = `/pack?game=${encodeURIComponent(game)}&${query()}`;
      showPages(Number(response.headers.get("x-pages") || "1"));
    } catch (error) {
      if (number === asked) showError("the page cannot reach papergames: is it still running?");
    } finally {
      if (number === asked) box.classList.remove("busy");
    }
  }

  function soon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 200);
  }

  form.addEventListener("input", soon);
  form.addEventListener("change", soon);
  document.getElementById("new-seed").addEventListener("click", () => {
    const numbers = new Uint32Array(1);
    crypto.getRandomValues(numbers);
    document.getElementById("in-seed").value = String(numbers[0] % 1000000);
    refresh();
  });
  pageChoice.addEventListener("change", () => {
    pageInput.value = pageChoice.value;
    refresh();
  });
  form.addEventListener("submit", (event) => {
    if (!valid) {
      event.preventDefault();
      message.hidden = false;
    }
  });
  refresh();
})();
