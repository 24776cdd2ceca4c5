// Recording a game: the page keeps the moves, and sends them with each new move for the server's
// rules engine to replay and judge. Played items are coloured in their player's colour, and a
// line between two points is drawn.
"use strict";

(function () {
  const root = document.getElementById("recorder");
  if (!root) return;
  const game = root.dataset.game;
  const spec = root.dataset.spec;
  const palette = {
    red: "#d62828", blue: "#1d5fbf", green: "#2a9d3f",
    orange: "#f08c00", purple: "#7b2cbf", brown: "#8d5524",
    yellow: "#e0b000", neutral: "#8a8a8a", marked: "#333333",
  };
  const colours = root.dataset.colours.split(",");
  const board = document.getElementById("board");
  const status = document.getElementById("status");
  const message = document.getElementById("message");
  const choices = document.getElementById("choices");
  const list = document.getElementById("moves");
  const playersInput = document.getElementById("players");
  let moves = [];
  let movers = [];
  let itemsOfMoves = []; // for each move, the ids of the items it names (from the server)
  let transcript = "";
  let busy = false;
  let pending = []; // the names clicked so far of a line: its first end
  let pendingItem = null;
  let pagesOfMoves = []; // the page each move was made on
  let position = null; // what the sheet shows now, [page, id, colour word], when the engine says
  let building = false; // whether pending holds a move being built from clicks
  let playPage = 1; // the page the next move is made on
  let shownPage = 0; // the page on screen
  let pageCount = 1; // the pages moves are made on (a sheet's last may be pieces to cut out)
  const optionsBox = document.getElementById("options");
  const pagesBar = document.getElementById("pages");

  // The rules options as the transcript's options line gives them: every input of the box.
  function options() {
    const chosen = {};
    if (!optionsBox) return chosen;
    for (const input of optionsBox.querySelectorAll("input, select")) {
      chosen[input.name] = input.value.trim();
    }
    return chosen;
  }

  function players() {
    return playersInput.value.split(",").map((name) => name.trim()).filter((name) => name);
  }

  function say(text) {
    message.textContent = text;
    message.hidden = !text;
  }

  function element(id) {
    return id ? board.querySelector(`[id="${CSS.escape(id)}"]`) : null;
  }

  function colourOf(word) {
    if (palette[word]) return palette[word];
    return CSS.supports("color", word) ? word : "#555";
  }

  function paint(id, seat, word) {
    const shape = element(id);
    if (!shape) return;
    let colour = "";
    if (word) colour = colourOf(word);
    else if (seat !== null) colour = palette[colours[seat]] || "#555";
    const area = shape.classList.contains("space") || shape.classList.contains("triangle");
    if (!area) {
      shape.style.stroke = colour;
      shape.style.strokeWidth = colour ? "1.2" : "";
      shape.style.fillOpacity = "";
    } else {
      shape.style.fill = colour;
      shape.style.fillOpacity = colour ? "0.6" : "";
    }
    shape.classList.toggle("played", Boolean(colour));
  }

  // Every move drawn again from the server's list of the items each move names: an area
  // coloured, or a line drawn between the two points it joins; so undo, loading and a change
  // of players need nothing else.
  function redraw() {
    board.querySelectorAll(".played").forEach((shape) => paint(shape.id, null));
    board.querySelectorAll(".drawn").forEach((line) => line.remove());
    const svg = board.querySelector("svg");
    if (position) {
      for (const [page, id, word] of position) {
        if (page === shownPage) paint(id, null, word);
      }
      return;
    }
    itemsOfMoves.forEach((ids, n) => {
      if ((pagesOfMoves[n] || 1) !== shownPage) return;
      const shapes = ids.map(element).filter((shape) => shape);
      const points = shapes.filter((shape) => shape.classList.contains("point"));
      if (points.length === 2 && svg) {
        const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
        line.setAttribute("x1", points[0].getAttribute("cx"));
        line.setAttribute("y1", points[0].getAttribute("cy"));
        line.setAttribute("x2", points[1].getAttribute("cx"));
        line.setAttribute("y2", points[1].getAttribute("cy"));
        line.setAttribute("class", "drawn");
        line.style.stroke = palette[colours[movers[n]]] || "#555";
        svg.append(line);
        return;
      }
      for (const shape of shapes) paint(shape.id, movers[n]);
    });
  }

  async function show(turn) {
    const names = players();
    list.replaceChildren(
      ...turn.moves.map((move, n) => {
        const li = document.createElement("li");
        li.textContent = `${names[turn.movers[n]] || "?"}: ${move}`;
        return li;
      }),
    );
    const scores = Object.entries(turn.scores).map(([name, score]) => `${name} ${score}`);
    if (turn.over) {
      const won = turn.winners.length ? `won by ${turn.winners.join(" and ")}` : "no winner";
      status.textContent = `The game is over, ${won}. Scores: ${scores.join(", ")}.`;
    } else {
      status.textContent = `${turn.to_move} to move. Scores: ${scores.join(", ")}.`;
    }
    transcript = turn.transcript;
    moves = turn.moves;
    movers = turn.movers;
    itemsOfMoves = turn.items;
    pagesOfMoves = turn.pages;
    pageCount = turn.pages_played;
    position = turn.position;
    showPlain(turn.plain);
    playPage = turn.page;
    if (optionsBox) {
      optionsBox.disabled = moves.length > 0;
    }
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
        button.addEventListener("click", () => move({ text }, null));
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
      button.addEventListener("click", () => loadPage(n).then(showPages));
      buttons.push(button);
    }
    pagesBar.replaceChildren("The sheet's pages: ", ...buttons);
  }

  // Draw one page of the sheet, with a larger invisible target over each point to click.
  async function loadPage(n) {
    const query = spec.split(" ").slice(1).join("&");
    const response = await fetch(`/api/preview/${encodeURIComponent(game)}?${query}&page=${n}`);
    if (!response.ok) {
      say("the sheet cannot be drawn");
      return;
    }

    const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
    board.replaceChildren(document.importNode(svg.documentElement, true));
    // A vertex is a dot too small to click (or none at all): a larger, invisible target on top.
    for (const point of board.querySelectorAll("circle.point")) {
      const hit = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      for (const key of ["cx", "cy"]) hit.setAttribute(key, point.getAttribute(key));
      hit.setAttribute("r", "2.2");
      hit.setAttribute("class", "hit");
      hit.dataset.for = point.id;
      point.parentNode.append(hit);
    }
    for (const id of JSON.parse(root.dataset.targets || "[]")) element(id)?.classList.add("target");
    shownPage = n;
    board.dataset.page = String(n);
    setPending([], null);
    redraw();
  }

  async function ask(extra) {
    if (busy) return null;
    busy = true;
    try {
      const response = await fetch(`/api/record/${encodeURIComponent(game)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ spec, players: players(), options: options(), moves, ...extra }),
      });
      const body = await response.json();
      if (!response.ok) {
        say(body.error || `the server refused (${response.status})`);
        return null;
      }
      return body;
    } catch (error) {
      say("the page cannot reach papergames: is it still running?");
      return null;
    } finally {
      busy = false;
    }
  }

  // The clicks of a move not yet whole: a line's first end is lit; a move built from clicks
  // shows what it has so far (Klee's colours, Cannon-Ball's pieces) in its colours.
  function setPending(names, item, built = false, marks = []) {
    if (pendingItem) hitOf(pendingItem)?.classList.remove("pending");
    const hadMarks = board.querySelector(".building");
    board.querySelectorAll(".building").forEach((shape) => shape.classList.remove("building"));
    if (hadMarks) redraw();
    pending = names;
    building = built && names.length > 0;
    pendingItem = names.length && !building ? item : null;
    if (pendingItem) hitOf(pendingItem)?.classList.add("pending");
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
      button.addEventListener("click", () => move({ text: choice }, item));
      return button;
    });
    if (turn.building) {
      const again = document.createElement("button");
      again.type = "button";
      again.id = "let-go";
      again.textContent = "Start this move again";
      again.addEventListener("click", () => {
        setPending([], null);
        choices.hidden = true;
        ask({}).then((next) => next && show(next));
      });
      buttons.push(again);
    }
    choices.replaceChildren(...buttons);
    choices.hidden = buttons.length === 0;
  }

  function hitOf(id) {
    return board.querySelector(`[data-for="${CSS.escape(id)}"]`) || element(id);
  }

  async function move(extra, item) {
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
      if (turn.hint) status.textContent = turn.hint;
      else if (turn.pending.length) {
        status.textContent = `${turn.pending.join("-")}: now click the other end, or the same point to let go.`;
      }
      offer(turn, item);
      return;
    }
    setPending([], null);
    if (!turn.accepted) {
      show(turn);
      say(turn.reason);
      if (turn.reason) element(item)?.classList.add("refused");
      setTimeout(() => element(item)?.classList.remove("refused"), 800);
      return;
    }
    say("");
    moves = turn.moves;
    movers = turn.movers;
    show(turn);
  }

  board.addEventListener("click", (event) => {
    const hit = event.target.closest("[data-for],[id]");
    if (!hit || !board.contains(hit)) return;
    if (shownPage !== playPage) {
      say(`This page's moves are made: the game goes on on page ${playPage}.`);
      return;
    }
    let id = hit.dataset.for || hit.id;
    if (pending.length && !building && id === pendingItem) {
      setPending([], null);
      ask({}).then((turn) => turn && show(turn));
      return;
    }
    if (id.startsWith("name-")) id = id.slice(5); // a printed label names its item
    if (id === "paper" || id.startsWith("layer-")) return;
    move({ item: id }, id);
  });

  document.getElementById("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = document.getElementById("move");
    const text = input.value.trim();
    if (!text) return;
    move({ text }, null).then(() => {
      if (!message.textContent) input.value = "";
    });
  });

  document.getElementById("undo").addEventListener("click", async () => {
    if (!moves.length) return;
    const previous = moves;
    moves = moves.slice(0, -1);
    setPending([], null);
    const turn = await ask({});
    if (!turn) {
      moves = previous;
      return;
    }
    moves = turn.moves;
    movers = turn.movers;
    say("");
    show(turn);
  });

  optionsBox?.addEventListener("change", async () => {
    const turn = await ask({});
    if (turn) {
      say("");
      show(turn);
    }
  });

  playersInput.addEventListener("change", async () => {
    moves = [];
    movers = [];
    setPending([], null);
    const turn = await ask({});
    if (turn) {
      say("");
      show(turn);
    }
  });

  document.getElementById("save").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([transcript], { type: "text/plain" }));
    link.download = `${game}-game.txt`;
    document.body.append(link);
    link.click();
    link.remove();
  });

  async function start() {
    await loadPage(1);
    moves = JSON.parse(root.dataset.moves || "[]");
    const turn = await ask({});
    if (!turn) return;
    moves = turn.moves;
    movers = turn.movers;
    show(turn);
  }
  start();
})();
