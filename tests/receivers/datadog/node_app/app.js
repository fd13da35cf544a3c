// A small traced Node.js service with Datadog's profiler on, for the datadog receiver's test.
// Configured by the environment (DD_TRACE_AGENT_URL, DD_SERVICE, DD_ENV, DD_VERSION,
// DD_PROFILING_ENABLED, DD_PROFILING_UPLOAD_PERIOD); runs for RUN_SECONDS, burning CPU in named
// functions inside traced spans, then exits.
'use strict'

const tracer = require('dd-trace').init()

function proflowBurnInner (ms) {
  const end = Date.now() + ms
  let x = 0
  while (Date.now() < end) x += Math.sqrt(x + 1)
  return x
}

function proflowBurnOuter (ms) {
  return proflowBurnInner(ms)
}

const until = Date.now() + Number(process.env.RUN_SECONDS || 20) * 1000

function tick () {
  if (Date.now() > until) {
    process.exit(0)
  }
  tracer.trace('proflow.work', { resource: 'GET /burn', type: 'web' }, (span) => {
    span.setTag('http.route', '/burn')
    proflowBurnOuter(40)
  })
  setTimeout(tick, 5)
}

tick()
