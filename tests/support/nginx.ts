import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';

// A real nginx reverse proxy in front of a test server (Debian's nginx-light, installed by
// scripts/ensure-system-deps.sh), configured like the README's example but appending to
// X-Forwarded-For ($proxy_add_x_forwarded_for), as many deployments do. With several upstream
// ports it balances them round-robin (the README's "Several instances") and names the instance
// that answered in X-Upstream, so a test can tell which one served a request.

export interface Nginx {
  port: number;
  /** The nginx process (a benchmark reads its CPU time). */
  pid: number;
  close(): Promise<void>;
}

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

async function waitForPort(port: number, child: ChildProcess, errors: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nginx did not listen on ${port}: ${errors()}`);
}

/**
 * `workerConnections`: connections nginx holds at once (each proxied request takes two: the
 * client's and the instance's); `upstreamKeepalive`: idle connections to the instances it keeps
 * open (HTTP/1.1), as a production proxy under load does, instead of a new one per request.
 */
export async function startNginx(upstreamPorts: number | number[], options: { workerConnections?: number; upstreamKeepalive?: number } = {}): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is missing: run scripts/ensure-system-deps.sh');
  const ports = Array.isArray(upstreamPorts) ? upstreamPorts : [upstreamPorts];
  const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-'));
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
pid ${join(dir, 'nginx.pid')};
error_log stderr warn;
worker_processes 1;
events { worker_connections ${options.workerConnections ?? 64}; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  upstream portal {
    ${ports.map((upstream) => `server 127.0.0.1:${upstream};`).join('\n    ')}
    ${options.upstreamKeepalive ? `keepalive ${options.upstreamKeepalive};` : ''}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 12m;
    location / {
      proxy_pass http://portal;
      ${options.upstreamKeepalive ? 'proxy_http_version 1.1;\n      proxy_set_header Connection "";' : ''}
      add_header X-Upstream $upstream_addr always;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  let stderr = '';
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await waitForPort(port, child, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    pid: child.pid!,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
