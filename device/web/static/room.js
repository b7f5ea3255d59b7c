// The tournament room's board: every table's tile, refreshed from /api/room. ?cols=N, ?lang=en.
"use strict";
(() => {
  const B = window.Belote;
  const { el } = B;
  const tiles = document.getElementById("tiles");
  const cols = Number(B.params.get("cols"));
  if (Number.isInteger(cols) && cols >= 1 && cols <= 12) tiles.style.setProperty("--cols", cols);
  let every = 2000;

  // A word with its {placeholders} filled; `<key>_one` where n is 1 and the language has one.
  const say = (key, values) => B.fill((values.n === 1 && B.T()[`${key}_one`]) || B.T()[key] || key,
    values);
  const clock = (t) => new Date(t * 1000).toLocaleTimeString(B.LANG,
    { hour: "2-digit", minute: "2-digit", second: "2-digit" });

  function teamName(game, team) {
    // Players' names, unless they are only the seats' ("Nord", as the demo names them).
    const seats = team === "NS" ? ["N", "S"] : ["E", "W"];
    const names = seats.map((s) => game.players[s])
      .filter((name, i) => name && name !== B.T()[`seat_${seats[i]}`]);
    const label = B.teamLabel(game, team);
    return names.length ? `${label} · ${names.join(" & ")}` : label;
  }

  // Why a table does not answer, in the page's words where the reason is a common one.
  function reason(t) {
    const T = B.T();
    if (!t.error) return "";
    switch (t.why) {
      case "refused": return T.err_refused;
      case "timeout": return T.err_timeout;
      case "http": return T.err_http.replace("{code}", t.error.replace(/^HTTP /, ""));
      case "unreachable": return T.err_unreachable;
      default: return t.error;
    }
  }

  function stateNode(t) {
    const T = B.T();
    if (t.status === "live") {
      if (t.game && t.game.camera === "down") {
        return el("span", { class: "tile-state down" }, el("span", { class: "dot down" }),
          `${T.camera} ${T.camera_down}`);
      }
      return el("span", { class: "tile-state" }, el("span", { class: "dot up" }), T.live);
    }
    const why = t.status === "waiting" ? T.waiting : say("offline_since", { time: clock(t.last_seen) });
    return el("span", { class: "tile-state down", title: reason(t) },
      el("span", { class: "dot down" }), why);
  }

  function gameNodes(g) {
    const T = B.T();
    if (!g.started) return [el("div", { class: "muted big" }, T.no_game)];
    const scores = el("div", { class: "tile-teams" }, ["NS", "EW"].flatMap((team) => [
      el("span", { class: `tile-team team-${team}` }, teamName(g, team)),
      el("span", { class: `tile-score${g.winner === team ? " winner" : ""}`, "data-team": team },
        g.score[team])]));
    const out = [scores, el("div", { class: "muted" }, `${T.target} ${g.target} · `,
      say("deals_played", { n: g.deals }))];
    if (g.winner) out.push(el("div", { class: "tile-banner" }, `${T.winner}${B.COLON} ${teamName(g, g.winner)}`));
    const d = g.deal;
    if (d && !g.winner) {
      out.push(el("div", { class: "tile-deal" },
        el("b", {}, `${T.deal} ${d.index}`), B.contractNode(g, d.contract),
        d.contract ? el("span", {}, `${T.trick} ${d.trick_number}/8`) : null,
        d.contract ? el("span", {}, `${T.tricks} ${d.tricks_won.NS} – ${d.tricks_won.EW}`) : null,
        d.turn ? el("span", {}, `${T.turn}${B.COLON} ${B.seatLabel(g, d.turn)}`) : null,
        d.result ? el("b", { class: `tile-result result-${d.result}` }, B.resultWord(d.result)) : null));
      out.push(el("div", { class: "tile-trick" }, d.trick.map((p) => B.cardImg(p.card, "mini"))));
    }
    return out;
  }

  function tile(t) {
    const T = B.T();
    const g = t.game;
    const cls = ["tile", t.status, g && g.winner ? "over" : ""].join(" ").trim();
    const href = `${t.url}/${B.LANG === "en" ? "?lang=en" : ""}`;
    const foot = el("div", { class: "tile-foot" },
      g && g.flags.pending ? el("span", { class: "badge pending" }, `⚑ ${say("to_judge", { n: g.flags.pending })}`) : null,
      g && g.rules ? el("span", {}, g.rules) : null,
      el("span", { class: "tile-url" }, t.url.replace(/^https?:\/\//, "")));
    return el("a", { class: cls, href, target: "_blank", rel: "noopener", "data-table": t.name,
                     "data-status": t.status },
      el("div", { class: "tile-head" }, el("span", { class: "tile-name" }, t.name), stateNode(t)),
      g ? gameNodes(g) : el("div", { class: "muted big" }, reason(t) || T.waiting), foot);
  }

  function render(room) {
    if (room.title) {
      document.querySelector("h1").textContent = room.title;
      document.title = room.title;
    }
    every = Math.max(500, (room.interval || 2) * 1000);
    const live = room.tables.filter((t) => t.status === "live").length;
    const counts = [say("room_live", { n: live })];
    if (live < room.tables.length) counts.push(say("room_offline", { n: room.tables.length - live }));
    document.getElementById("room-counts").textContent = counts.join(" · ");
    document.getElementById("clock").textContent = clock(room.time);
    tiles.replaceChildren(...room.tables.map(tile));
    document.body.dataset.polls = Number(document.body.dataset.polls || 0) + 1;
  }

  async function poll() {
    try {
      const r = await fetch("/api/room", { cache: "no-store" });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      render(await r.json());
      document.body.classList.remove("offline");
    } catch (e) {
      document.body.classList.add("offline");  // the room server itself is gone: keep the tiles
    }
    setTimeout(poll, every);
  }

  B.loadWords().then(poll);
})();
