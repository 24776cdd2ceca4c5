// Recording a game: the page keeps the moves, and sends them with each new move for the server's
// rules engine to replay and judge. Played items are coloured in their player's colour, and a
// line between two points is drawn.
//
// Every request waits for the one before (a queue, see enqueue), so no click is lost while the
// server answers. The game is kept in the browser (localStorage, one per sheet) at every move, and
// comes back when the page is opened again; leaving with moves not downloaded asks first.
// The sheet is drawn large enough for every item to click to be at least 24 CSS px (WCAG 2.2),
// wider than the screen if need be, with larger invisible targets over points and lines, the
// nearest item winning; every item to click is a button for the keyboard too.
"use strict";

(function () {
  const root = document.getElementById("recorder");
  if (!root) return;
  const game = root.dataset.game;
  const spec = root.dataset.spec;
  const title = root.dataset.title || game;
  const palette = {
    red: "#d62828", blue: "#1d5fbf", green: "#2a9d3f",
    orange: "#f08c00", purple: "#7b2cbf", brown: "#8d5524",
    yellow: "#e0b000", neutral: "#8a8a8a", marked: "#333333",
  };
  const colours = root.dataset.colours.split(",");
  const targets = new Set(JSON.parse(root.dataset.targets || "[]"));
  const kinds = new Set((root.dataset.kinds || "").split(" ").filter((kind) => kind));
  const labels = JSON.parse(root.dataset.labels || "[]");
  const ITEM_KINDS = ["space", "triangle", "segment", "line", "point"];
  const STROKES = ["segment", "line"];
  const MIN_TARGET = 24; // CSS px: the least target size of WCAG 2.2 (2.5.8)
  const ZOOMS = [1, 1.5, 2, 3];
  const SVG = "http://www.w3.org/2000/svg";

  const board = document.getElementById("board");
  const boardScroll = document.getElementById("board-scroll");
  const stage = document.getElementById("stage");
  const bar = document.getElementById("bar");
  const status = document.getElementById("status");
  const message = document.getElementById("message");
  const choices = document.getElementById("choices");
  const list = document.getElementById("moves");
  const playersInput = document.getElementById("players");
  const optionsBox = document.getElementById("options");
  const pagesBar = document.getElementById("pages");
  const keptBox = document.getElementById("kept");
  const keptText = document.getElementById("kept-text");
  const zoomIn = document.getElementById("zoom-in");
  const zoomOut = document.getElementById("zoom-out");

  let players = names(root.dataset.players || ""); // the names the server took last
  let shownPlayers = players; // the names of the last turn shown, in the page's order
  let moves = [];
  let movers = [];
  let itemsOfMoves = []; // for each move, the ids of the items it names (from the server)
  let transcript = "";
  let savedTranscript = null; // the transcript as last downloaded
  let pending = []; // the names clicked so far of a line: its first end
  let pendingItem = null;
  let pagesOfMoves = []; // the page each move was made on
  let position = null; // what the sheet shows now, [page, id, colour word], when the engine says
  let building = false; // whether pending holds a move being built from clicks
  let playPage = 1; // the page the next move is made on
  let shownPage = 0; // the page on screen
  let pageCount = 1; // the pages moves are made on (a sheet's last may be pieces to cut out)
  let lastRefusal = null; // {item, reason} of the last click refused
  let turnedDown = null; // the item outlined as refused, and its timer
  let view = null; // the part of the page drawn, in mm: {x, y, w, h, smallest}
  let zoom = 0; // an index into ZOOMS
  let queue = Promise.resolve();

  // Every action runs after the one before has finished: a click made while the server is still
  // answering (the players' names just typed) is played next, never dropped.
  function enqueue(action) {
    const run = queue.then(action);
    queue = run.catch((error) => {
      say(`something went wrong on this page: ${error}`);
    });
    return run;
  }

  function names(text) {
    return text
      .split(",")
      .map((name) => name.trim().split(/\s+/).join(" "))
      .filter((name) => name);
  }

  // The rules options as the transcript's options line gives them: every input of the box.
  function options() {
    const chosen = {};
    if (!optionsBox) return chosen;
    for (const input of optionsBox.querySelectorAll("input, select")) {
      chosen[input.name] = input.value.trim();
    }
    return chosen;
  }

  function setOptions(chosen) {
    if (!optionsBox) return;
    for (const input of optionsBox.querySelectorAll("input, select")) {
      const value = chosen?.[input.name];
      if (typeof value !== "string") continue;
      if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === value)) continue;
      input.value = value;
    }
  }

  function say(text) {
    message.textContent = text;
    message.hidden = !text;
  }

  function element(id) {
    return id ? board.querySelector(`[id="${CSS.escape(id)}"]`) : null;
  }

  function hitOf(id) {
    return board.querySelector(`[data-for="${CSS.escape(id)}"]`) || element(id);
  }

  function colourOf(word) {
    if (palette[word]) return palette[word];
    return CSS.supports("color", word) ? word : "#555";
  }

  function seatColour(seat) {
    return palette[colours[seat]] || "#555";
  }

  function dot(seat) {
    const mark = document.createElement("span");
    mark.className = "dot";
    mark.style.background = seatColour(seat);
    mark.setAttribute("aria-hidden", "true");
    return mark;
  }

  function paint(id, seat, word) {
    const shape = element(id);
    if (!shape) return;
    let colour = "";
    if (word) colour = colourOf(word);
    else if (seat !== null) colour = seatColour(seat);
    const area = shape.classList.contains("space") || shape.classList.contains("triangle");
    if (!area && colour && window.colourOverChannel(shape, colour)) {
      shape.classList.add("played");
      return;
    }
    if (!area) {
      shape.style.stroke = colour;
      shape.style.strokeWidth = colour ? "1.2" : "";
      shape.style.fillOpacity = "";
    } else {
      shape.style.fill = colour;
      shape.style.fillOpacity = colour ? "0.55" : "";
    }
    shape.classList.toggle("played", Boolean(colour));
  }

  // Every move drawn again from the server's list of the items each move names: an area
  // coloured, or a line drawn between the two points it joins; where the engine says what the
  // sheet shows (pieces where they stand, the sections a line filled), that is painted and the
  // lines are drawn over it. So undo, loading and a change of players need nothing else.
  function redraw() {
    board.querySelectorAll(".played").forEach((shape) => paint(shape.id, null));
    board.querySelectorAll(".drawn").forEach((line) => line.remove());
    const svg = board.querySelector("svg");
    if (position) {
      for (const [page, id, word] of position) {
        if (page === shownPage) paint(id, null, word);
      }
    }
    itemsOfMoves.forEach((ids, n) => {
      if ((pagesOfMoves[n] || 1) !== shownPage) return;
      const shapes = ids.map(element).filter((shape) => shape);
      const points = shapes.filter((shape) => shape.classList.contains("point"));
      if (points.length === 2 && svg) {
        const line = document.createElementNS(SVG, "line");
        line.setAttribute("x1", points[0].getAttribute("cx"));
        line.setAttribute("y1", points[0].getAttribute("cy"));
        line.setAttribute("x2", points[1].getAttribute("cx"));
        line.setAttribute("y2", points[1].getAttribute("cy"));
        line.setAttribute("class", "drawn");
        line.style.stroke = seatColour(movers[n]);
        svg.append(line);
        return;
      }
      if (!position) for (const shape of shapes) paint(shape.id, movers[n]);
    });
  }

  function showStatus(turn) {
    const scores = Object.entries(turn.scores).map(([name, score]) => `${name} ${score}`);
    if (turn.over) {
      const won = turn.winners.length ? `won by ${turn.winners.join(" and ")}` : "no winner";
      status.replaceChildren(`The game is over, ${won}. Scores: ${scores.join(", ")}.`);
      return;
    }
    const seat = shownPlayers.indexOf(turn.to_move);
    const colour = colours[seat] ? ` (${colours[seat]})` : "";
    status.replaceChildren(
      ...(seat >= 0 ? [dot(seat)] : []),
      `${turn.to_move} to move${colour}. Scores: ${scores.join(", ")}.`,
    );
  }

  async function show(turn) {
    shownPlayers = turn.players && turn.players.length ? turn.players : players;
    list.replaceChildren(
      ...turn.moves.map((move, n) => {
        const li = document.createElement("li");
        li.append(dot(turn.movers[n]), `${shownPlayers[turn.movers[n]] || "?"}: ${move}`);
        return li;
      }),
    );
    list.scrollTop = list.scrollHeight; // the list's own scroll only: the page stays put
    transcript = turn.transcript;
    moves = turn.moves;
    movers = turn.movers;
    itemsOfMoves = turn.items;
    pagesOfMoves = turn.pages;
    pageCount = turn.pages_played;
    position = turn.position;
    showStatus(turn);
    showPlain(turn.plain);
    playPage = turn.page;
    if (optionsBox) optionsBox.disabled = moves.length > 0;
    keep();
    if (shownPage !== playPage) {
      await loadPage(playPage);
    } else {
      redraw();
    }
    showPages();
  }

  // Moves that name nothing on the sheet (a pass, a loss, being stuck) are buttons.
  function showPlain(texts) {
    const box = document.getElementById("plain");
    box.replaceChildren(
      ...texts.map((text) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = text;
        button.className = "plain-move";
        button.addEventListener("click", () => enqueue(() => move({ text }, null)));
        return button;
      }),
    );
    if (texts.length) box.prepend("Or: ");
    box.hidden = texts.length === 0;
  }

  function showPages() {
    pagesBar.hidden = pageCount < 2;
    if (pageCount < 2) return;
    const buttons = [];
    for (let n = 1; n <= pageCount; n += 1) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = n === playPage ? `Page ${n} (to play)` : `Page ${n}`;
      button.setAttribute("aria-pressed", String(n === shownPage));
      button.addEventListener("click", () => enqueue(() => loadPage(n).then(showPages)));
      buttons.push(button);
    }
    pagesBar.replaceChildren("The sheet's pages: ", ...buttons);
  }

  // One page of the sheet: drawn, its items to click made buttons, cut to the part played on
  // and sized so that its smallest item to click is at least MIN_TARGET px.
  async function loadPage(n) {
    const query = spec.split(" ").slice(1).join("&");
    const response = await fetch(`/api/preview/${encodeURIComponent(game)}?${query}&page=${n}`);
    if (!response.ok) {
      say("the sheet cannot be drawn");
      return;
    }
    const parsed = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
    const svg = document.importNode(parsed.documentElement, true);
    board.replaceChildren(svg);
    shownPage = n;
    board.dataset.page = String(n);
    prepare(svg, n);
    view = crop(svg);
    fit();
    setPending([], null);
    redraw();
  }

  function kindOf(shape) {
    return ITEM_KINDS.find((kind) => shape.classList.contains(kind));
  }

  function prepare(svg, page) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "group");
    const which = pageCount > 1 ? `, page ${page}` : "";
    svg.setAttribute(
      "aria-label",
      `The sheet of ${title}${which}: click or tap an item to play it, or reach it with Tab and press Enter`,
    );
    const named = labels[page - 1] || {};
    for (const shape of svg.querySelectorAll("[id]")) {
      const kind = kindOf(shape);
      const target = targets.has(shape.id);
      if (!kind && !target) continue;
      if (!target && kinds.size && !kinds.has(kind)) continue;
      if (target) shape.classList.add("target");
      shape.classList.add("playable");
      let button = shape;
      if (kind === "point") button = addHit(shape, "circle");
      else if (target) button = addHit(shape, "box");
      else if (STROKES.includes(kind)) button = addHit(shape, "stroke");
      const label = named[shape.id] || shape.id.replace(/-/g, " ");
      button.setAttribute("tabindex", "0");
      button.setAttribute("role", "button");
      button.setAttribute("aria-label", label);
      const tip = shape.querySelector("title");
      if (tip) tip.textContent = label;
    }
  }

  // A point is a dot too small to hit, a line a hairline, a key's box may be small: a larger
  // invisible target over each, sized in fit().
  function addHit(shape, type) {
    let hit;
    if (type === "circle") {
      hit = document.createElementNS(SVG, "circle");
      for (const key of ["cx", "cy"]) hit.setAttribute(key, shape.getAttribute(key));
      hit.setAttribute("class", "hit");
    } else if (type === "box") {
      hit = document.createElementNS(SVG, "rect");
      hit.setAttribute("class", "hit hit-box");
    } else {
      hit = shape.cloneNode(false);
      for (const key of ["id", "style", "stroke-dasharray"]) hit.removeAttribute(key);
      hit.setAttribute("class", "hit hit-stroke");
      hit.setAttribute("fill", "none");
      hit.setAttribute("stroke", "transparent");
    }
    hit.dataset.for = shape.id;
    // A key's box stays on top of its larger target, so it is the box itself that is clicked.
    if (type === "box") shape.parentNode.insertBefore(hit, shape);
    else shape.parentNode.append(hit);
    return hit;
  }

  function boxOf(shape) {
    try {
      const b = shape.getBBox();
      return b.width || b.height ? { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height } : null;
    } catch (error) {
      return null;
    }
  }

  // The part of the page moves are played on: the items to click, the score boxes, and the
  // names printed round them; the smallest area to click, in mm.
  function crop(svg) {
    const [vx, vy, vw, vh] = (svg.getAttribute("viewBox") || "0 0 210 297").split(/[\s,]+/).map(Number);
    let area = null;
    let smallest = 0;
    const grow = (b) => {
      area = area
        ? { x0: Math.min(area.x0, b.x0), y0: Math.min(area.y0, b.y0), x1: Math.max(area.x1, b.x1), y1: Math.max(area.y1, b.y1) }
        : { ...b };
    };
    for (const shape of svg.querySelectorAll(".playable, .target")) {
      const b = boxOf(shape);
      if (!b) continue;
      grow(b);
      const kind = kindOf(shape);
      if (shape.classList.contains("target")) shape.dataset.box = JSON.stringify(b);
      if (kind !== "space" && kind !== "triangle") continue; // the others have targets of their own
      const least = Math.min(b.x1 - b.x0, b.y1 - b.y0);
      if (least > 0.3 && (!smallest || least < smallest)) smallest = least;
    }
    const score = svg.querySelector("#layer-score");
    const scored = score && boxOf(score);
    if (scored) grow(scored);
    if (!area) return { x: vx, y: vy, w: vw, h: vh, smallest };
    const near = 12;
    for (const text of svg.querySelectorAll("text")) {
      const b = boxOf(text);
      if (b && b.x1 > area.x0 - near && b.x0 < area.x1 + near && b.y1 > area.y0 - near && b.y0 < area.y1 + near) grow(b);
    }
    const pad = 3;
    const x = Math.max(vx, area.x0 - pad);
    const y = Math.max(vy, area.y0 - pad);
    const w = Math.min(vx + vw, area.x1 + pad) - x;
    const h = Math.min(vy + vh, area.y1 + pad) - y;
    svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    return { x, y, w, h, smallest };
  }

  // The sheet's size on screen: as large as its box allows, and never so small that an area to
  // click is under MIN_TARGET px (the sheet then scrolls); the points' and lines' targets are
  // MIN_TARGET px whatever the size. The zoom buttons make it larger still.
  function fit() {
    const svg = board.querySelector("svg");
    if (!svg || !view) return;
    const wide = window.matchMedia("(min-width: 50rem)").matches;
    const width = boardScroll.clientWidth || window.innerWidth;
    const height = wide ? boardScroll.clientHeight || window.innerHeight : Infinity;
    const fitted = Math.min(width / view.w, height / view.h);
    const needed = view.smallest ? (MIN_TARGET + 1) / view.smallest : 0;
    const scale = Math.max(fitted, Math.min(needed, fitted * 6)) * ZOOMS[zoom];
    svg.style.width = `${(view.w * scale).toFixed(1)}px`;
    svg.style.height = `${(view.h * scale).toFixed(1)}px`;
    const radius = (MIN_TARGET / 2 + 0.5) / scale;
    for (const hit of svg.querySelectorAll("circle.hit")) hit.setAttribute("r", radius.toFixed(3));
    for (const hit of svg.querySelectorAll(".hit-stroke")) {
      hit.style.strokeWidth = ((MIN_TARGET + 1) / scale).toFixed(3);
    }
    const least = (MIN_TARGET + 1) / scale;
    for (const hit of svg.querySelectorAll(".hit-box")) {
      const b = JSON.parse(element(hit.dataset.for)?.dataset.box || "null");
      if (!b) continue;
      const w = Math.max(b.x1 - b.x0, least);
      const h = Math.max(b.y1 - b.y0, least);
      hit.setAttribute("x", ((b.x0 + b.x1 - w) / 2).toFixed(3));
      hit.setAttribute("y", ((b.y0 + b.y1 - h) / 2).toFixed(3));
      hit.setAttribute("width", w.toFixed(3));
      hit.setAttribute("height", h.toFixed(3));
    }
    const larger = view.w * scale > width + 1 || (wide && view.h * scale > height + 1);
    document.getElementById("scroll-hint").hidden = !larger;
    zoomIn.disabled = zoom >= ZOOMS.length - 1;
    zoomOut.disabled = zoom <= 0;
  }

  function rezoom(step) {
    const next = Math.max(0, Math.min(ZOOMS.length - 1, zoom + step));
    if (next === zoom) return;
    const across = (boardScroll.scrollLeft + boardScroll.clientWidth / 2) / (boardScroll.scrollWidth || 1);
    const down = (boardScroll.scrollTop + boardScroll.clientHeight / 2) / (boardScroll.scrollHeight || 1);
    zoom = next;
    fit();
    boardScroll.scrollLeft = across * boardScroll.scrollWidth - boardScroll.clientWidth / 2;
    boardScroll.scrollTop = down * boardScroll.scrollHeight - boardScroll.clientHeight / 2;
  }

  zoomIn.addEventListener("click", () => rezoom(1));
  zoomOut.addEventListener("click", () => rezoom(-1));
  window.addEventListener("resize", () => fit());

  // On a phone the bar stays at the top of the screen over the sheet: the sheet's box leaves
  // room for it, so the two are on screen together.
  if (window.ResizeObserver) {
    new ResizeObserver(() => stage.style.setProperty("--bar", `${bar.offsetHeight}px`)).observe(bar);
  }

  async function ask(extra, names = players) {
    try {
      const response = await fetch(`/api/record/${encodeURIComponent(game)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ spec, players: names, options: options(), moves, ...extra }),
      });
      let body = {};
      try {
        body = await response.json();
      } catch (error) {
        body = {};
      }
      if (!response.ok) {
        say(body.error || `the server refused (${response.status})`);
        return null;
      }
      return body;
    } catch (error) {
      say("the page cannot reach papergames: is it still running?");
      return null;
    }
  }

  // The clicks of a move not yet whole: a line's first end is ringed; a move built from clicks
  // shows what it has so far (Klee's colours, Cannon-Ball's pieces) in its colours.
  function setPending(names, item, built = false, marks = []) {
    board.querySelectorAll(".first-end").forEach((shape) => shape.classList.remove("first-end"));
    const hadMarks = board.querySelector(".building");
    board.querySelectorAll(".building").forEach((shape) => shape.classList.remove("building"));
    if (hadMarks) redraw();
    pending = names;
    building = built && names.length > 0;
    pendingItem = names.length && !building ? item : null;
    if (pendingItem) hitOf(pendingItem)?.classList.add("first-end");
    for (const [id, word] of marks) {
      paint(id, null, word);
      element(id)?.classList.add("building");
    }
  }

  function offer(turn, item) {
    const buttons = turn.choices.map((choice) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = choice;
      button.addEventListener("click", () => enqueue(() => move({ text: choice }, item)));
      return button;
    });
    if (turn.building) {
      const again = document.createElement("button");
      again.type = "button";
      again.id = "let-go";
      again.textContent = "Start this move again";
      again.addEventListener("click", () =>
        enqueue(async () => {
          setPending([], null);
          choices.hidden = true;
          const next = await ask({});
          if (next) await show(next);
        }),
      );
      buttons.push(again);
    }
    choices.replaceChildren(...buttons);
    choices.hidden = buttons.length === 0;
  }

  // A refused item is outlined in black dashes for a moment, whatever its colour.
  function turnDown(item) {
    clearTurnedDown();
    const shape = hitOf(item);
    if (!shape) return;
    shape.classList.add("turned-down");
    turnedDown = { shape, timer: setTimeout(clearTurnedDown, 1600) };
  }

  function clearTurnedDown() {
    if (turnedDown) clearTimeout(turnedDown.timer);
    turnedDown = null;
    board.querySelectorAll(".turned-down").forEach((shape) => shape.classList.remove("turned-down"));
  }

  async function move(extra, item, previous = null) {
    choices.hidden = true;
    const turn = await ask({
      ...extra,
      pending: extra.item ? pending : [],
      building: Boolean(extra.item) && building,
    });
    if (!turn) return;
    if (turn.pending.length || turn.choices.length) {
      setPending(turn.pending, item, turn.building, turn.marks);
      say(turn.reason);
      if (turn.hint) status.replaceChildren(turn.hint);
      else if (turn.pending.length) {
        status.replaceChildren(
          `${turn.pending.join("-")}: now click the other end, or the same point to let go.`,
        );
      }
      offer(turn, item);
      return;
    }
    setPending([], null);
    if (!turn.accepted) {
      await show(turn);
      let reason = turn.reason;
      if (reason && item && targets.has(item) && previous && !targets.has(previous.item)) {
        // A colour clicked after a refused space: the space is what is wrong.
        const kind = previous.item.split("-")[0];
        reason = `${previous.reason}. Click another ${kind} first.`;
        lastRefusal = previous;
      } else {
        lastRefusal = reason && item ? { item, reason } : null;
      }
      say(reason);
      if (reason && item) turnDown(item);
      return;
    }
    lastRefusal = null;
    say("");
    await show(turn);
  }

  async function clickItem(id) {
    clearTurnedDown();
    if (shownPage !== playPage) {
      say(`This page's moves are made: the game goes on on page ${playPage}.`);
      return;
    }
    if (pending.length && !building && id === pendingItem) {
      setPending([], null);
      const turn = await ask({});
      if (turn) await show(turn);
      return;
    }
    if (id.startsWith("name-")) id = id.slice(5); // a printed label names its item
    if (id === "paper" || id.startsWith("layer-")) return;
    const previous = lastRefusal;
    lastRefusal = null;
    await move({ item: id }, id, previous);
  }

  function pointIn(svg, event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(matrix.inverse());
  }

  // How far the pointer is from a target, in mm: from a point's centre, from a line's ink.
  function distance(shape, at) {
    if (shape.tagName === "circle") {
      return Math.hypot(at.x - Number(shape.getAttribute("cx")), at.y - Number(shape.getAttribute("cy")));
    }
    if (shape.tagName === "rect") {
      const x = Number(shape.getAttribute("x")) + Number(shape.getAttribute("width")) / 2;
      const y = Number(shape.getAttribute("y")) + Number(shape.getAttribute("height")) / 2;
      return Math.hypot(at.x - x, at.y - y);
    }
    if (shape.classList.contains("hit-stroke") && shape.getTotalLength) {
      const length = shape.getTotalLength();
      const steps = Math.min(400, Math.max(16, Math.ceil(length / 0.4)));
      let best = Infinity;
      for (let k = 0; k <= steps; k += 1) {
        const p = shape.getPointAtLength((length * k) / steps);
        best = Math.min(best, Math.hypot(at.x - p.x, at.y - p.y));
      }
      return best;
    }
    return 0;
  }

  // The item a click means: of the targets under the pointer, the points' and lines' first (the
  // nearest of them), else the area.
  function picked(event) {
    const direct = event.target.closest?.(".hit, .playable");
    if (!direct || !board.contains(direct)) return null;
    const svg = board.querySelector("svg");
    const at = svg && event.detail !== 0 ? pointIn(svg, event) : null;
    if (!at) return direct.dataset.for || direct.id;
    const under = document
      .elementsFromPoint(event.clientX, event.clientY)
      .filter((shape) => board.contains(shape) && shape.matches(".hit, .playable"));
    const hits = under.filter((shape) => shape.classList.contains("hit"));
    if (hits.length) {
      let best = hits[0];
      let near = Infinity;
      for (const hit of hits) {
        const away = distance(hit, at);
        if (away < near) {
          near = away;
          best = hit;
        }
      }
      return best.dataset.for;
    }
    const shape = under[0] || direct;
    return shape.dataset.for || shape.id;
  }

  board.addEventListener("click", (event) => {
    const id = picked(event);
    if (id) enqueue(() => clickItem(id));
  });

  board.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const shape = event.target.closest?.("[role=button]");
    if (!shape || !board.contains(shape)) return;
    event.preventDefault();
    const id = shape.dataset.for || shape.id;
    enqueue(() => clickItem(id));
  });

  document.getElementById("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = document.getElementById("move");
    const text = input.value.trim();
    if (!text) return;
    enqueue(async () => {
      await move({ text }, null);
      if (!message.textContent) input.value = "";
    });
  });

  document.getElementById("undo").addEventListener("click", () =>
    enqueue(async () => {
      if (!moves.length) return;
      const previous = moves;
      moves = moves.slice(0, -1);
      setPending([], null);
      const turn = await ask({});
      if (!turn) {
        moves = previous;
        return;
      }
      say("");
      await show(turn);
    }),
  );

  optionsBox?.addEventListener("change", () =>
    enqueue(async () => {
      const turn = await ask({});
      if (turn) {
        say("");
        await show(turn);
      }
    }),
  );

  // New names replay the moves so far under them: nothing is lost. Names the transcript cannot
  // hold are refused, and the sheet goes on with the names it had.
  playersInput.addEventListener("change", () =>
    enqueue(async () => {
      const typed = names(playersInput.value);
      if (typed.join(",") === players.join(",")) {
        playersInput.removeAttribute("aria-invalid");
        return;
      }
      if (!typed.length) {
        playersInput.setAttribute("aria-invalid", "true");
        say(`Write the players' names, parted by commas. The game goes on with ${players.join(", ")}.`);
        return;
      }
      if (moves.length && typed.length !== players.length) {
        playersInput.setAttribute("aria-invalid", "true");
        say(
          `The ${moves.length} moves so far were played by ${players.length} players: undo them, ` +
            `or start a new game, to change how many play. The game goes on with ${players.join(", ")}.`,
        );
        return;
      }
      setPending([], null);
      const turn = await ask({}, typed);
      if (!turn) {
        playersInput.setAttribute("aria-invalid", "true");
        say(`${message.textContent}. The game goes on with ${players.join(", ")}.`);
        return;
      }
      players = typed;
      playersInput.removeAttribute("aria-invalid");
      say("");
      await show(turn);
    }),
  );

  document.getElementById("save").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([transcript], { type: "text/plain" }));
    link.download = `${game}-game.txt`;
    document.body.append(link);
    link.click();
    link.remove();
    savedTranscript = transcript;
    keep();
  });

  document.getElementById("new-game").addEventListener("click", () =>
    enqueue(async () => {
      if (moves.length && transcript !== savedTranscript) {
        const sure = window.confirm(
          `Start a new game? The ${moves.length} moves recorded are dropped: download the ` +
            "transcript first to keep them.",
        );
        if (!sure) return;
      }
      const previous = moves;
      moves = [];
      setPending([], null);
      const turn = await ask({});
      if (!turn) {
        moves = previous;
        return;
      }
      keptBox.hidden = true;
      say("");
      await show(turn);
    }),
  );

  // The game in this browser, one per sheet (the game and its spec): kept at every move.
  const storeKey = `papergames.recorder ${game} ${spec}`;

  function keep() {
    try {
      const saved = transcript !== "" && transcript === savedTranscript;
      const kept = { players, options: options(), moves, saved, at: Date.now() };
      localStorage.setItem(storeKey, JSON.stringify(kept));
    } catch (error) {
      // No storage (a private window, or full): the game is only on the page.
    }
  }

  function kept() {
    try {
      const data = JSON.parse(localStorage.getItem(storeKey) || "null");
      const texts = (value) => Array.isArray(value) && value.every((t) => typeof t === "string");
      if (!data || !texts(data.players) || !texts(data.moves) || !data.players.length) return null;
      return data;
    } catch (error) {
      return null;
    }
  }

  function showKept(text) {
    keptText.textContent = text;
    keptBox.hidden = false;
  }

  // Leaving with moves not downloaded asks first (the game is kept in this browser all the same).
  window.addEventListener("beforeunload", (event) => {
    if (!moves.length || transcript === savedTranscript) return;
    event.preventDefault();
    event.returnValue = "";
  });

  async function start() {
    const loaded = root.dataset.loaded === "yes";
    if (loaded && window.location.pathname === "/record") {
      // A reload of the loaded game asks for this sheet's page, which has it kept.
      const query = spec.split(" ").slice(1).join("&");
      window.history.replaceState(null, "", `/record/${encodeURIComponent(game)}?${query}`);
    }
    await loadPage(1);
    const stored = loaded ? null : kept();
    if (stored && (stored.moves.length || stored.players.join(",") !== players.join(","))) {
      const given = players;
      players = stored.players;
      playersInput.value = players.join(", ");
      setOptions(stored.options);
      moves = stored.moves;
      const turn = await ask({});
      if (turn) {
        await show(turn);
        if (stored.saved) {
          savedTranscript = transcript;
          keep();
        }
        const count = moves.length === 1 ? "1 move" : `${moves.length} moves`;
        showKept(
          `Your game on this sheet is back, as you left it: ${count}, played by ` +
            `${players.join(", ")}. It goes on from there; "Start a new game" clears it.`,
        );
        return;
      }
      const why = message.textContent;
      players = given;
      playersInput.value = players.join(", ");
      setOptions({});
      showKept(`A game kept on this sheet could not be replayed (${why}): a new game starts.`);
    }
    moves = JSON.parse(root.dataset.moves || "[]");
    const turn = await ask({});
    if (!turn) return;
    if (!stored) say("");
    await show(turn);
  }
  enqueue(start);
})();
