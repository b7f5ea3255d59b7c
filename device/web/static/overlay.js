// OBS browser source: transparent 1920x1080 page; ?layout=bar|trick|score &position=... &delay=N
// A new flagged play pops up in a banner for flag_s seconds (?flag_s=N, 10; ?flags=0: never).
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
  const showFlags = B.params.get("flags") !== "0";
  const flagSeconds = Math.min(60, Math.max(1, Number(B.params.get("flag_s")) || 10));
  let seenFlags = null;  // flags present when the source (re)loaded are not news
  let flagTimer = null;
  // The banner goes opposite the box (OBS's browser may predate CSS :has, so a class, not a rule).
  if (position.startsWith("top")) document.getElementById("flag").classList.add("at-bottom");

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

  // A flag the stream has not shown yet: the rule broken, in one sentence, for flagSeconds.
  function popFlag(s) {
    const key = (f) => `${f.deal}:${f.play}:${f.rule}`;
    const fresh = seenFlags === null ? []
      : s.flags.filter((f) => f.decision === "pending" && !seenFlags.has(key(f)));
    seenFlags = new Set(s.flags.map(key));
    if (!showFlags || !fresh.length) return;
    const f = fresh[fresh.length - 1];
    const T = B.T();
    const banner = document.getElementById("flag");
    banner.replaceChildren(el("div", { class: "o-flag-rule" }, `⚑ ${T[`rule_${f.rule}`] || f.rule}`),
      el("div", { class: "o-flag-why" }, B.explain(s, f)));
    banner.hidden = false;
    clearTimeout(flagTimer);
    flagTimer = setTimeout(() => { banner.hidden = true; }, flagSeconds * 1000);
  }

  function render(s) {
    popFlag(s);
    document.body.dataset.seq = s.seq;
    const parts = layout === "score" ? [score(s)]
      : layout === "trick" ? [trick(s), contract(s)]
      : [score(s), contract(s), trick(s)];
    document.getElementById("box").replaceChildren(...parts);
  }

  B.loadWords().then(() => B.connect(render, null, delay));
})();
