// OBS browser source: transparent 1920x1080 page; ?layout=bar|trick|score &position=... &delay=N
"use strict";
(() => {
  const B = window.Belote;
  const { el } = B;
  const LAYOUTS = ["bar", "trick", "score"];
  const POSITIONS = ["top-left", "top", "top-right", "bottom-left", "bottom", "bottom-right"];
  const layout = LAYOUTS.includes(B.params.get("layout")) ? B.params.get("layout") : "bar";
  const position = POSITIONS.includes(B.params.get("position")) ? B.params.get("position") : "bottom";
  const delay = Math.max(0, Number(B.params.get("delay")) || 0);
  const stage = document.getElementById("stage");
  stage.classList.add(`layout-${layout}`, `pos-${position}`);

  function score(s) {
    return el("div", { class: "o-score" },
      el("span", { class: "o-team ns" }, B.teamLabel(s, "NS")),
      el("span", { class: "o-pts", "data-team": "NS" }, s.score.NS),
      el("span", { class: "o-sep" }, `/ ${s.target}`),
      el("span", { class: "o-pts", "data-team": "EW" }, s.score.EW),
      el("span", { class: "o-team ew" }, B.teamLabel(s, "EW")));
  }

  function trick(s) {
    const d = s.deal;
    const by = {};
    for (const p of d ? d.trick : []) by[p.seat] = p.card;
    return el("div", { class: "o-trick" }, ["N", "W", "E", "S"].map((seat) => el("div",
      { class: `o-seat o-${seat}${d && d.turn === seat ? " turn" : ""}` },
      by[seat] ? B.cardImg(by[seat], "card") : el("div", { class: "o-empty" }),
      el("span", { class: "o-name" }, B.seatLabel(s, seat)))));
  }

  function contract(s) {
    const d = s.deal;
    const T = B.T();
    return el("div", { class: "o-contract" },
      d ? B.contractNode(s, d.contract) : el("span", {}, T.no_game),
      d ? el("span", { class: "o-points" },
        `${T.trick} ${d.trick_number}/8 · ${d.points.NS} – ${d.points.EW}`) : null,
      delay ? el("span", { class: "o-delay" }, `${T.delay} ${delay}s`) : null);
  }

  function render(s) {
    document.body.dataset.seq = s.seq;
    const parts = layout === "score" ? [score(s)]
      : layout === "trick" ? [trick(s), contract(s)]
      : [score(s), contract(s), trick(s)];
    document.getElementById("box").replaceChildren(...parts);
  }

  B.loadWords().then(() => B.connect(render, null, delay));
})();
