// Uploads one file from many concurrent clients with Node's http module. Prints one line per client:
// "status <code> <Retry-After>" or "error <code>".
// Usage: node crowd.js PORT TARGET FILE CLIENTS
'use strict';
const fs = require('fs');
const http = require('http');

const [port, target, path, clients] = [Number(process.argv[2]), process.argv[3], process.argv[4], Number(process.argv[5])];
const body = fs.readFileSync(path);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const lines = [];
let pending = clients;

function done(line) {
  lines.push(line);
  if (--pending === 0) console.log(lines.join('\n'));
}

for (let i = 0; i < clients; i++) {
  let answered = false;
  const req = http.request({ host: '127.0.0.1', port, path: target, method: 'POST', agent,
                             headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length } },
                           (res) => {
                             res.resume();
                             res.on('end', () => {
                               if (answered) return;
                               answered = true;
                               done(`status ${res.statusCode} ${res.headers['retry-after'] || '-'}`);
                             });
                           });
  req.setTimeout(120000, () => req.destroy(new Error('timeout')));
  req.on('error', (e) => {
    if (answered) return;
    answered = true;
    done(`error ${e.code || e.message}`);
  });
  req.end(body);
}
