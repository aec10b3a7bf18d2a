-- wrk script for scripts/soak.sh: a steady request rate over a mix of cached pages, section
-- requests, cache misses and bad requests, counting statuses by kind.
--
-- wrk ... -s mix.lua URL -- RATE CONNECTIONS [MISSES]
-- MISSES 0 turns the misses into pages, to measure cached traffic alone.
-- Each request carries X-Request-ID "<kind>-<n>", which Folio echoes, so a response is
-- classified by the kind of request it answers whatever the connection order.
local threads = {}

function setup(thread)
    thread:set("id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    local rate = tonumber(args[1] or "200")
    local connections = tonumber(args[2] or "8")
    -- delay() is per connection: CONNECTIONS connections at 1000/pause requests a second each.
    pause = connections * 1000 / rate
    misses = (args[3] or "1") ~= "0"
    n = 0
    counts = {}
end

function delay()
    return pause
end

-- Cached pages in three shapes: by offset, by page number, in another order.
local function page(n)
    local shape = n % 3
    if shape == 0 then return string.format("/objects?pageSize=25&offset=%d", (n * 25) % 2000) end
    if shape == 1 then return string.format("/objects?page=%d&pageSize=50", n % 40) end
    return string.format("/objects?sort=-name&pageSize=20&offset=%d", (n * 20) % 2000)
end

function request()
    n = n + 1
    local slot = n % 20
    local kind, path
    if slot == 0 and misses then
        kind, path = "miss", string.format("/objects?v=%d-%d&pageSize=10", id, n)
    elseif slot == 1 then
        kind, path = "bad", "/objects?pageSize=abc"
    elseif slot == 2 then
        kind, path = "bad", "/objects?beginsWith=AB&offset=-1"
    elseif slot == 3 then
        kind, path = "section", "/objects?groupBy=alphabetical&metadataOnly"
    elseif slot == 4 then
        kind, path = "section", string.format("/objects?beginsWith=%s&pageSize=10", string.char(65 + n % 26))
    else
        kind, path = "page", page(n)
    end
    return wrk.format("GET", path, { ["X-Request-ID"] = kind .. "-" .. id .. "-" .. n })
end

function response(status, headers, body)
    local id = headers["X-Request-ID"] or headers["x-request-id"] or "unknown-"
    local kind = id:match("^(%a+)-") or "unknown"
    local key = kind .. " " .. status
    counts[key] = (counts[key] or 0) + 1
end

-- What each kind may answer. Misses go upstream (a new cache key each), so they may carry the
-- upstream's fault (503 passed through, 502, 504); everything else has a cached list to fall
-- back on (staleIfError) and must never see one.
local expected = {
    page = { [200] = true },
    section = { [200] = true },
    bad = { [400] = true },
    miss = { [200] = true, [502] = true, [503] = true, [504] = true },
}

function done(summary, latency, requests)
    local total, unexpected = {}, 0
    for _, thread in ipairs(threads) do
        for key, count in pairs(thread:get("counts")) do
            total[key] = (total[key] or 0) + count
        end
    end
    local keys = {}
    for key in pairs(total) do table.insert(keys, key) end
    table.sort(keys)
    io.write("soak: statuses by kind\n")
    for _, key in ipairs(keys) do
        local kind, status = key:match("^(%a+) (%d+)$")
        local ok = expected[kind] and expected[kind][tonumber(status)]
        if not ok then unexpected = unexpected + total[key] end
        io.write(string.format("soak:   %-8s %s %8d%s\n", kind, status, total[key], ok and "" or "   UNEXPECTED"))
    end
    local e = summary.errors
    io.write(string.format("soak: requests %d in %.1f s (%.1f/s)\n", summary.requests, summary.duration / 1e6,
        summary.requests / (summary.duration / 1e6)))
    io.write(string.format("soak: latency p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms\n",
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000))
    io.write(string.format("soak: socket errors connect %d read %d write %d timeout %d\n", e.connect, e.read, e.write, e.timeout))
    io.write(string.format("soak: unexpected statuses %d\n", unexpected + e.connect + e.read + e.write + e.timeout))
end
