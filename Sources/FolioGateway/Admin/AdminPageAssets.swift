/// The admin page's inline style and script (`AdminPage`), hashed into its
/// `Content-Security-Policy`: change them here and the policy follows.
enum AdminPageAssets {
    static let style = """

        :root { font: 14px/1.4 system-ui, sans-serif; color: #1d2330; background: #f3f5f8; }
        body { margin: 0; }
        header { display: flex; gap: 1.5em; align-items: baseline; padding: .8em 1.5em; background: #1d2330;
          color: #fff; }
        header h1 { margin: 0; font-size: 1.3em; }
        #summary { flex: 1; color: #c9d1e0; }
        #status.ok { color: #8fd19e; } #status.bad { color: #ff9b9b; }
        main { padding: 1em 1.5em; }
        .card { background: #fff; border: 1px solid #dde2ea; border-radius: 6px; padding: .8em 1em; margin-bottom: 1em; }
        .card h2 { margin: 0 0 .4em; font-size: 1.1em; display: flex; gap: .8em; align-items: baseline; }
        .card h2 small { font-weight: normal; color: #5b6478; }
        .card h2 button { margin-left: auto; }
        .facts { display: flex; flex-wrap: wrap; gap: .4em 1.6em; margin: .3em 0 .6em; }
        .facts b { font-weight: 600; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #eef1f5; }
        th { color: #5b6478; font-weight: 600; }
        code { font: 12px ui-monospace, monospace; }
        .fresh { color: #17803d; } .stale { color: #b54708; } .retained { color: #5b6478; }
        .up { color: #17803d; } .down { color: #c62828; }
        .empty { color: #5b6478; font-style: italic; }
        button { font: inherit; padding: .2em .8em; border: 1px solid #c62828; color: #c62828; background: #fff;
          border-radius: 4px; cursor: pointer; }
        button:hover { background: #fdecec; }

        """

    static let script = """

        "use strict";
        const $ = (id) => document.getElementById(id);
        let token = null;

        function el(tag, text, cls) {
          const node = document.createElement(tag);
          if (text !== undefined && text !== null) node.textContent = String(text);
          if (cls) node.className = cls;
          return node;
        }
        function bytes(n) {
          if (n == null) return "–";
          const units = ["B", "KiB", "MiB", "GiB"];
          let i = 0;
          while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
          return (i ? n.toFixed(1) : n) + " " + units[i];
        }
        function seconds(s) {
          if (s < 120) return s + " s";
          if (s < 7200) return Math.floor(s / 60) + " min";
          return Math.floor(s / 3600) + " h";
        }
        function fact(parent, label, value, cls) {
          const span = el("span");
          span.append(label + " ", el("b", value, cls));
          parent.append(span);
        }
        function table(headers, rows) {
          const t = el("table");
          const head = el("tr");
          headers.forEach((h) => head.append(el("th", h)));
          t.append(head);
          rows.forEach((cells) => {
            const tr = el("tr");
            cells.forEach((c) => tr.append(c instanceof Node ? wrap(c) : el("td", c)));
            t.append(tr);
          });
          return t;
        }
        function wrap(node) { const td = el("td"); td.append(node); return td; }

        function renderStore(state) {
          const s = state.store;
          const card = $("store");
          card.replaceChildren(el("h2", "Store"));
          const facts = el("div", null, "facts");
          fact(facts, "kind", s.kind);
          fact(facts, "snapshots", s.snapshots);
          fact(facts, "bytes", bytes(s.bytes) + " of " + bytes(s.maxBytes));
          fact(facts, "evictions", s.evictions);
          fact(facts, "fills in flight", state.fillsInFlight);
          card.append(facts);
          if (s.nodes.length) {
            card.append(table(["Redis node", "reachable"], s.nodes.map((n) =>
              [el("code", n.address), el("span", n.reachable ? "yes" : "no", n.reachable ? "up" : "down")])));
          }
        }

        function renderRoute(route, needsToken) {
          const card = el("section", null, "card route");
          card.dataset.route = route.name;
          const title = el("h2", route.name);
          title.append(el("small", route.path + " → " + route.upstreamHost + " · " + route.dialect));
          const purge = el("button", "Purge");
          purge.type = "button";
          purge.className = "purge";
          purge.addEventListener("click", () => purgeRoute(route.name, needsToken));
          title.append(purge);
          card.append(title);
          const facts = el("div", null, "facts");
          fact(facts, "hits", route.hits);
          fact(facts, "misses", route.misses);
          fact(facts, "stale", route.stale);
          fact(facts, "errors", route.errors, route.errors ? "down" : "");
          fact(facts, "fills in flight", route.fillsInFlight);
          fact(facts, "watchers", route.watchers);
          const f = route.lastFill;
          fact(facts, "last fill", f ? new Date(f.at).toLocaleTimeString() + ", " + f.durationMs.toFixed(1) + " ms, "
            + bytes(f.bytes) + (f.items == null ? "" : ", " + f.items + " items") + ", " + f.outcome : "none yet",
            f && !/^(stored|revalidated|shared|uncacheable|unstored)$/.test(f.outcome) ? "down" : "");
          card.append(facts);
          if (!route.snapshots.length) {
            card.append(el("p", "No snapshots held.", "empty"));
          } else {
            card.append(table(["key", "token", "items", "bytes", "age", "freshness", "state"],
              route.snapshots.map((s) => [
                el("code", s.keyHash), el("code", s.token), String(s.items), bytes(s.bytes), seconds(s.ageSeconds),
                el("span", s.fresh ? "fresh (" + s.ttlSeconds + " s left)" : "stale (" + -s.ttlSeconds + " s)",
                  s.fresh ? "fresh" : "stale"),
                el("span", s.state, s.state === "retained" ? "retained" : "")])));
          }
          return card;
        }

        async function purgeRoute(name, needsToken) {
          const headers = {};
          if (needsToken) {
            if (!token) token = window.prompt("Admin token for purging " + name);
            if (!token) return;
            headers["Authorization"] = "Bearer " + token;
          }
          const answer = await fetch("purge?route=" + encodeURIComponent(name), { method: "POST", headers });
          if (answer.status === 401) token = null;
          $("note").textContent = answer.status === 204 ? "Purged " + name + "." : "Purge of " + name + " failed: HTTP "
            + answer.status;
          refresh();
        }

        async function refresh() {
          try {
            const answer = await fetch("state", { cache: "no-store" });
            if (!answer.ok) throw new Error("HTTP " + answer.status);
            const state = await answer.json();
            renderStore(state);
            $("routes").replaceChildren(...state.routes.map((r) => renderRoute(r, state.purgeNeedsToken)));
            $("summary").textContent = state.routes.length + " routes · " + (state.ready ? "ready" : "not ready");
            $("status").textContent = "updated " + new Date().toLocaleTimeString();
            $("status").className = "ok";
          } catch (error) {
            $("status").textContent = "cannot read /state: " + error.message;
            $("status").className = "bad";
          }
        }

        refresh();
        setInterval(refresh, 2000);

        """
}
