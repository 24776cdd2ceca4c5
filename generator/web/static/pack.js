// The class pack: ask the server to make it, show how many sheets are made, then offer it.
"use strict";

(function () {
  const form = document.getElementById("pack-form");
  if (!form) return;
  const message = document.getElementById("message");
  const box = document.getElementById("progress-box");
  const bar = document.getElementById("progress");
  const text = document.getElementById("progress-text");
  const ready = document.getElementById("pack-ready");
  const link = document.getElementById("pack-link");
  const button = document.getElementById("make-pack");

  function say(words) {
    message.textContent = words;
    message.hidden = !words;
  }

  async function follow(id) {
    for (;;) {
      const response = await fetch(`/api/pack/${encodeURIComponent(id)}`);
      const job = await response.json();
      if (!response.ok || job.error) {
        say(job.error || `the pack cannot be made (${response.status})`);
        box.hidden = true;
        return;
      }
      if (job.total) {
        bar.max = job.total;
        bar.value = job.done;
        text.textContent = `${job.done} of ${job.total} sheets made`;
      }
      if (job.ready) {
        text.textContent = `${job.total} sheets made: ${job.filename}`;
        link.href = `/api/pack/${encodeURIComponent(id)}/file`;
        link.textContent = `Download ${job.filename}`;
        document.getElementById("pack-command").textContent = job.command;
        ready.hidden = false;
        link.focus();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    ready.hidden = true;
    button.disabled = true;
    try {
      const response = await fetch("/api/pack", { method: "POST", body: new FormData(form) });
      const job = await response.json();
      if (!response.ok) {
        say(job.error || `the pack cannot be made (${response.status})`);
        return;
      }
      bar.removeAttribute("value");
      text.textContent = "starting";
      box.hidden = false;
      await follow(job.id);
    } catch (error) {
      say("the page cannot reach papergames: is it still running?");
    } finally {
      button.disabled = false;
    }
  });
})();
