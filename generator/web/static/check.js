// The check form: say that a photo is being read while the server reads it; for a PDF of many
// sheets, follow the reading and show the results when every sheet is read. After a check,
// bring the verdict into view and give it the focus, so that it is seen and read first.
"use strict";

(function () {
  const job = document.getElementById("reading-job");
  if (job) {
    const bar = document.getElementById("progress");
    const text = document.getElementById("progress-text");
    const follow = async () => {
      try {
        const response = await fetch(`/api/check/${encodeURIComponent(job.dataset.job)}`);
        const state = await response.json();
        if (!response.ok || state.error || state.ready) {
          window.location.reload();
          return;
        }
        bar.value = state.done;
        text.textContent = text.textContent.replace(/^\d+/, String(state.done));
      } catch (error) {
        text.textContent = "the page cannot reach papergames: is it still running?";
        return;
      }
      setTimeout(follow, 400);
    };
    setTimeout(follow, 400);
  }

  // The verdict stands first on the page. Were it still out of sight (the page opened
  // scrolled), or cut off at the bottom of a small screen, it is scrolled into view: all of it
  // when it fits, else its top. Only its top is placed, never its bottom: a photo's pictures
  // make it taller as they load.
  const verdict = document.getElementById("verdict") || document.getElementById("photo-result");
  if (verdict) {
    const box = verdict.getBoundingClientRect();
    const high = window.innerHeight;
    if (box.top < 0 || box.top > high / 2) {
      window.scrollBy(0, box.top - 8);
    } else if (box.bottom > high) {
      window.scrollBy(0, Math.min(box.bottom - high + 8, box.top));
    }
    verdict.focus({ preventScroll: true });
  }

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
