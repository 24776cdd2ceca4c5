// The checked sheets: draw each sheet's SVG, colour each played item in its player's colour
// (or, for a photo, in the pencil's colour as read), draw each line between two points, outline
// the items at fault in red and the doubtful ones in orange. Everything to draw comes from the
// server in data attributes.
"use strict";

(function () {
  const palette = {
    red: "#d62828", blue: "#1d5fbf", green: "#2a9d3f",
    orange: "#f08c00", purple: "#7b2cbf", brown: "#8d5524",
  };

  function colourOf(word) {
    if (palette[word]) return palette[word];
    return CSS.supports("color", word) ? word : "#777";
  }

  function mark(shape, colour) {
    const area = shape.classList.contains("space") || shape.classList.contains("triangle");
    if (area) {
      shape.style.fill = colour;
      shape.style.fillOpacity = "0.6";
    } else if (!window.colourOverChannel(shape, colour)) {
      shape.style.stroke = colour;
      shape.style.strokeWidth = "1.2";
    }
  }

  async function draw(board) {
    const query = board.dataset.spec.split(" ").slice(1).join("&");
    const game = encodeURIComponent(board.dataset.game);
    const page = encodeURIComponent(board.dataset.page || "1");
    const response = await fetch(`/api/preview/${game}?${query}&page=${page}`);
    if (!response.ok) return;
    const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
    board.replaceChildren(document.importNode(svg.documentElement, true));
    const find = (id) => board.querySelector(`[id="${CSS.escape(id)}"]`);
    for (const [id, word] of JSON.parse(board.dataset.paint)) {
      const shape = find(id);
      if (shape) mark(shape, colourOf(word));
    }
    const drawing = board.querySelector("svg");
    for (const [from, to, word] of JSON.parse(board.dataset.lines)) {
      const a = find(from);
      const b = find(to);
      if (!a || !b || !drawing) continue;
      const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
      line.setAttribute("x1", a.getAttribute("cx"));
      line.setAttribute("y1", a.getAttribute("cy"));
      line.setAttribute("x2", b.getAttribute("cx"));
      line.setAttribute("y2", b.getAttribute("cy"));
      line.setAttribute("class", "drawn");
      line.style.stroke = colourOf(word);
      drawing.append(line);
    }
    for (const [key, style] of [["flagged", "flagged"], ["doubtful", "doubtful"]]) {
      for (const id of JSON.parse(board.dataset[key] || "[]")) {
        const shape = find(id);
        if (shape) shape.classList.add(style);
      }
    }
    board.dataset.drawn = "yes";
  }

  for (const board of document.querySelectorAll(".checked[data-spec]")) draw(board);
})();
