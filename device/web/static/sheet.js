// The game's score sheet (feuille de marque): every deal, the totals, the flags and their rulings,
// signature lines. Live like the other pages; printed (or saved as PDF) on one A4 page.
"use strict";
(() => {
  const B = window.Belote;
  const { el } = B;
  const TEAMS = ["NS", "EW"];
  const SEATS_OF = { NS: ["N", "S"], EW: ["E", "W"] };

  function when(t) {
    return t ? new Date(t * 1000).toLocaleString(B.LANG, { dateStyle: "long", timeStyle: "short" }) : "—";
  }

  function head(s) {
    const T = B.T();
    return [
      el("h1", {}, T.sheet),
      el("div", { class: "sheet-meta" },
        el("span", {}, `${T.started} ${when(s.started_at)}`),
        el("span", {}, `${T.rules}${B.COLON} ${s.rules.name}`),
        el("span", {}, `${T.target} ${s.target}`)),
      el("div", { class: "sheet-teams" }, TEAMS.map((team) => el("div", { class: `sheet-team team-${team}` },
        el("b", {}, B.teamLabel(s, team)), " · ",
        SEATS_OF[team].map((seat) => `${B.seatLabel(s, seat)} (${B.T()[`seat_${seat}`]})`).join(", ")))),
    ];
  }

  function deals(s) {
    const T = B.T();
    const num = (v) => el("td", { class: "num" }, v ?? "—");
    const rows = s.history.map((h) => el("tr", { "data-deal": h.index },
      el("td", {}, h.index),
      el("td", {}, B.seatLabel(s, h.dealer)),
      el("td", {}, B.contractNode(s, h.contract)),
      el("td", {}, B.declared(s, h.announces, h.belote).join(" · ")),
      el("td", { class: "num" }, h.card_points ? `${h.card_points.NS} – ${h.card_points.EW}` : "—"),
      el("td", { class: `result-${h.result}` }, h.result === "penalty" ? T.penalty : B.resultWord(h.result)),
      num(h.score && h.score.NS), num(h.score && h.score.EW),
      num(h.total.NS), num(h.total.EW)));
    const current = s.deal && !s.history.some((h) => h.index === s.deal.index) ? s.deal.index : null;
    return [
      el("thead", {}, el("tr", {},
        el("th", {}, T.deal), el("th", {}, T.dealer), el("th", {}, T.contract), el("th", {}, T.announces),
        el("th", { class: "num" }, T.card_points), el("th", {}, ""),
        TEAMS.map((t) => el("th", { class: "num" }, `${T.deal_score} ${B.teamLabel(s, t)}`)),
        TEAMS.map((t) => el("th", { class: "num" }, `${T.total} ${B.teamLabel(s, t)}`)))),
      el("tbody", {}, rows),
      el("tfoot", {}, el("tr", {},
        el("td", { colspan: 8 }, current ? T.in_progress.replace("{n}", current) : T.score),
        el("td", { class: "num", "data-total": "NS" }, s.score.NS),
        el("td", { class: "num", "data-total": "EW" }, s.score.EW))),
    ];
  }

  function flags(s) {
    const T = B.T();
    if (!s.flags.length) return [];
    return [el("h2", {}, T.flags), ...s.flags.map((f) => el("div", { class: "sheet-flag", "data-decision": f.decision },
      el("b", {}, `${T.deal} ${f.deal} · ${T[`rule_${f.rule}`] || f.rule}`), `${B.COLON} ${B.explain(s, f)} `,
      `${T.decision}${B.COLON} ${T[f.decision] || f.decision}.`))];
  }

  function foot(s) {
    const T = B.T();
    const final = s.winner ? `${T.winner}${B.COLON} ${B.teamLabel(s, s.winner)} (${s.score.NS} – ${s.score.EW})`
      : `${T.game_on} · ${s.score.NS} – ${s.score.EW}`;
    return [
      el("div", { class: "sheet-final" }, final),
      el("div", { class: "signatures" }, el("div", {}, T.signature_referee),
        TEAMS.map((t) => el("div", {}, T.signature_team.replace("{team}", B.teamLabel(s, t))))),
    ];
  }

  function render(s) {
    const T = B.T();
    if (!s.started) {
      document.getElementById("sheet-head").replaceChildren(el("h1", {}, T.sheet), el("p", { class: "muted" }, T.no_game));
      document.getElementById("deals").replaceChildren();
    } else {
      document.getElementById("sheet-head").replaceChildren(...head(s));
      document.getElementById("deals").replaceChildren(...deals(s));
      document.getElementById("sheet-flags").replaceChildren(...flags(s));
      document.getElementById("sheet-foot").replaceChildren(...foot(s));
    }
    document.title = T.sheet;
    document.body.dataset.seq = s.seq;
  }

  document.getElementById("print").addEventListener("click", () => window.print());
  B.loadWords().then(() => B.connect(render));
})();
