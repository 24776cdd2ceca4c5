// The class pack: ask the server to make it, show how many sheets are made, then offer it. A
// refusal is shown below the input it is about. (Without this script the form is sent to the
// server, which answers with a page that follows the making.)
"use strict";

(function () {
  const form = document.getElementById("pack-form");
  if (!form) return;
  const message = document.getElementById("message");
  const home = document.createElement("span");
  home.hidden = true;
  form.after(home);
  const box = document.getElementById("progress-box");
  const bar = document.getElementById("progress");
  const text = document.getElementById("progress-text");
  const ready = document.getElementById("pack-ready");
  const link = document.getElementById("pack-link");
  const button = document.getElementById("make-pack");

  function unmark() {
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    form.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
    form.querySelectorAll("[aria-describedby~='message']").forEach((el) => {
      const ids = el.getAttribute("aria-describedby").split(" ").filter((id) => id && id !== "message");
      if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
      else el.removeAttribute("aria-describedby");
    });
  }

  // The message below the input ``field`` names (a game's setting opens its settings), below
  // the list of games for ``games``, else after the form.
  function say(words, field) {
    unmark();
    message.textContent = words || "";
    message.hidden = !words;
    if (!words) return;
    const input = field && field !== "games" ? form.querySelector(`[name="${CSS.escape(field)}"]`) : null;
    let around = input ? input.closest(".field") : null;
    if (field === "games") {
      around = document.getElementById("field-games");
      around.querySelector("legend").after(message);
      around.setAttribute("aria-describedby", "message");
    } else if (around) {
      around.append(message);
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", `${input.getAttribute("aria-describedby") || ""} message`.trim());
      const details = around.closest("details");
      if (details) details.open = true;
    } else {
      home.after(message);
    }
    if (around) around.classList.add("has-error");
    message.scrollIntoView({ block: "nearest" });
  }

  async function follow(id) {
    for (;;) {
      const response = await fetch(`/api/pack/${encodeURIComponent(id)}`);
      const job = await response.json();
      if (!response.ok || job.error) {
        say(job.error || `the pack cannot be made (${response.status})`, job.field);
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
        say(job.error || `the pack cannot be made (${response.status})`, job.field);
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
