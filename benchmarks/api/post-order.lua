-- wrk script: POST /orders with one fixed two-line order, as benchmarks/api/run.sh uses it.
--   wrk -t2 -c8 -d15s --latency -s benchmarks/api/post-order.lua http://127.0.0.1:18080/orders
-- AUTH_HEADER (environment), when set, is sent as the Authorization header, e.g. "Bearer eyJ...".
-- done() prints "non-201 responses: N" (wrk itself only reports non-2xx/3xx ones).

wrk.method = "POST"
wrk.body = '{"customerId":"0192b7a4-5d1e-7c3a-9f00-3b1c2d4e5f60","currency":"EUR","items":[{"bookId":"978-0134494166","quantity":2,"unitPrice":"39.90"},{"bookId":"978-0321125217","quantity":1,"unitPrice":"54.99"}]}'
wrk.headers["Content-Type"] = "application/json"
local auth = os.getenv("AUTH_HEADER")
if auth ~= nil and auth ~= "" then
   wrk.headers["Authorization"] = auth
end

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   non201 = 0
end

function response(status, headers, body)
   if status ~= 201 then
      non201 = non201 + 1
   end
end

function done(summary, latency, requests)
   local total = 0
   for _, thread in ipairs(threads) do
      total = total + (thread:get("non201") or 0)
   end
   io.write(string.format("non-201 responses: %d\n", total))
end
