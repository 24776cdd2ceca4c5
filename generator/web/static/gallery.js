// The gallery's search: the cards are filtered as the words are typed, on the page itself (the
// server answers the same search when the form is sent without this script).
"use strict";

(function () {
  const form = document.getElementById("finder");
  if (!form) return;
  const find = document.getElementById("find");
  const players = document.getElementById("players");
  const found = document.getElementById("found");
  const cards = Array.from(document.querySelectorAll("#games .card"));
  document.getElementById("find-button").hidden = true;

  // The same words as papergames.web.view.finder_words: lower case, letters and digits.
  function words(text) {
    return text.toLowerCase().replace(/[^0-9a-z]+/g, " ").trim().split(" ").filter(Boolean);
  }

  function filter() {
    const wanted = words(find.value);
    const count = Number(players.value || "0");
    let shown = 0;
    for (const card of cards) {
      const text = card.dataset.find;
      const [low, high] = card.dataset.players.split("-").map(Number);
      const match = wanted.every((w) => text.includes(w)) && (!count || (low <= count && count <= high));
      card.hidden = !match;
      if (match) shown += 1;
    }
    const text = shown === cards.length ? `${shown} games`
      : shown ? `${shown} of ${cards.length} games` : "No game matches: try fewer words";
    if (found.textContent !== text) found.textContent = text;
    const params = new URLSearchParams();
    if (find.value.trim()) params.set("q", find.value.trim());
    if (players.value) params.set("players", players.value);
    const query = params.toString();
    history.replaceState(null, "", query ? `/?${query}` : "/");
  }

  find.addEventListener("input", filter);
  players.addEventListener("change", filter);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    filter();
  });
  filter();
})();
