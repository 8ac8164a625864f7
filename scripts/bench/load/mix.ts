import { Agent, request as httpRequest } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { jpegJfif } from '../../../tests/support/fixtures';
import { multipart } from '../../../tests/support/multipart';

// The load generator of `npm run bench -- multi`, run as its own process (so it shares no event
// loop with the portal instances or the benchmark): `node --import tsx scripts/bench/load/mix.ts
// plan.json results.json`. It plays one of two mixes through nginx for the plan's seconds and
// writes what it measured (latency and answers per operation, which instance answered, from
// nginx's X-Upstream) and every acknowledged write, so the benchmark can check afterwards that
// nothing was lost or doubled.

export interface Plan {
  url: string;
  seconds: number;
  /** Seconds of the same load before the measured ones (each instance warms up: compiled code, caches, pools); their writes are checked too. */
  warmSeconds: number;
  mix: 'deadline' | 'opening';
  /** Marks this run's scans and badge names apart from another run's on the same database. */
  runId: string;
  eventCode: string;
  /** Deadline week: each exhibitor is played by one virtual user at a time (its saves are sequential, as one person's are). */
  exhibitors: Array<{ token: string; participationId: number; version: number }>;
  exhibitorUsers: number;
  /** Organisers on the progress matrix and the submissions export. */
  organisers: string[];
  /** Show opening: one connection per scanning device. */
  devices: Array<{ token: string; participationId: number }>;
  scansPerBatch: number;
  /** Badges a participation's devices draw from: two devices of a stand scan the same visitor now and then. */
  badgesPerParticipation: number;
}

export interface OperationFigures {
  count: number;
  /** Answers other than code 200 (or a broken connection), by what they were. */
  failures: Record<string, number>;
  /** The first answer of each kind of failure, shortened: what went wrong. */
  examples: Record<string, string>;
  latencies: number[];
}

export interface Results {
  elapsedSeconds: number;
  operations: Record<string, OperationFigures>;
  /** Requests per instance (nginx's X-Upstream). */
  upstreams: Record<string, number>;
  /** The last acknowledged save of each exhibitor's S04 (draft or submit): its version and data. */
  drafts: Record<string, { version: number; data: unknown }>;
  /** Exhibitors whose last write was not acknowledged (a timeout): its outcome is unknown, so not checked. */
  uncertain: number[];
  submits: Record<string, number>;
  uploads: Array<{ id: string; participationId: number; size: number }>;
  scans: Array<{ participationId: number; clientScanId: string; badgeCode: string; status: string; reason?: string; leadId: number | null }>;
}

interface Answer {
  status: number;
  body: { code?: number; error?: string; data?: unknown } | null;
  bytes: number;
  upstream: string;
}

const FORM = 's04';
/** Badges per save: within the event's badge quota (5), so a submit needs no organiser's approval. */
const BADGES = 5;

/** A number as letters (a badge name must read as a real name: no digits). */
function letters(value: number | string): string {
  return String(value)
    .split('')
    .map((c) => (/[0-9]/.test(c) ? String.fromCharCode(97 + Number(c)) : c))
    .join('');
}

function send(agent: Agent, url: string, method: string, token: string, body?: { bytes: Buffer; type: string }, json = true): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body) {
      headers['content-type'] = body.type;
      headers['content-length'] = body.bytes.length;
    }
    const request = httpRequest(url, { method, agent, timeout: 60_000, headers }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (json) chunks.push(chunk);
      });
      response.on('end', () => {
        let parsed: Answer['body'] = null;
        if (json) {
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'];
          } catch {
            parsed = null;
          }
        }
        resolve({ status: response.statusCode ?? 0, body: parsed, bytes, upstream: String(response.headers['x-upstream'] ?? '') });
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body?.bytes);
  });
}

const jsonBody = (value: unknown) => ({ bytes: Buffer.from(JSON.stringify(value)), type: 'application/json' });

export async function runMix(plan: Plan): Promise<Results> {
  const results: Results = { elapsedSeconds: 0, operations: {}, upstreams: {}, drafts: {}, uncertain: [], submits: {}, uploads: [], scans: [] };
  const figures = (name: string) => (results.operations[name] ??= { count: 0, failures: {}, examples: {}, latencies: [] });
  const deadline = Date.now() + (plan.warmSeconds + plan.seconds) * 1000;

  /** One request, timed and counted; answers the envelope when it was code 200, else null. */
  async function timed(name: string, agent: Agent, path: string, method: string, token: string, body?: { bytes: Buffer; type: string }, json = true) {
    const started = performance.now();
    const figure = figures(name);
    try {
      const answer = await send(agent, `${plan.url}${path}`, method, token, body, json);
      figure.latencies.push(performance.now() - started);
      figure.count += 1;
      results.upstreams[answer.upstream || '(none)'] = (results.upstreams[answer.upstream || '(none)'] ?? 0) + 1;
      const good = answer.status === 200 && (!json || answer.body?.code === 200);
      if (!good) {
        const reason = `${answer.status} ${answer.body?.error ?? answer.body?.code ?? ''}`.trim();
        figure.failures[reason] = (figure.failures[reason] ?? 0) + 1;
        figure.examples[reason] ??= JSON.stringify(answer.body).slice(0, 400);
        return { answer, ok: false as const };
      }
      return { answer, ok: true as const };
    } catch (error) {
      figure.latencies.push(performance.now() - started);
      figure.count += 1;
      const reason = (error as Error).message;
      figure.failures[reason] = (figure.failures[reason] ?? 0) + 1;
      return { answer: null, ok: false as const };
    }
  }

  let started = performance.now();
  // After the warm-up the figures start again (the acknowledged writes are kept); the parent is told, to read CPU from here on.
  const warmed = setTimeout(() => {
    results.operations = {};
    results.upstreams = {};
    started = performance.now();
    process.stdout.write('measuring\n');
  }, plan.warmSeconds * 1000);
  if (plan.mix === 'deadline') {
    const agent = new Agent({ keepAlive: true, maxSockets: plan.exhibitorUsers + plan.organisers.length });
    const logo = jpegJfif(300);
    const exhibitor = async (user: number) => {
      const mine = plan.exhibitors.filter((_, index) => index % plan.exhibitorUsers === user);
      for (let round = 0; Date.now() < deadline; round += 1) {
        const live = mine.filter((e) => !results.uncertain.includes(e.participationId));
        if (live.length === 0) return;
        const entry = live[round % live.length]!;
        const roll = Math.random();
        if (roll < 0.15) {
          const { payload, contentType } = multipart([
            { name: 'purpose', value: 'logo' },
            { name: 'file', filename: `logo-${plan.runId}-${round}.jpg`, bytes: logo },
          ]);
          const { answer, ok } = await timed('upload (logo)', agent, '/oga/uploads', 'POST', entry.token, { bytes: payload, type: contentType });
          if (ok) results.uploads.push({ id: (answer.body!.data as { id: string }).id, participationId: entry.participationId, size: logo.length });
          continue;
        }
        const submit = roll < 0.3;
        // Badges whose names carry the run and round, so the stored data tells which save it is.
        const data = {
          badges: Array.from({ length: BADGES }, (_, n) => ({
            firstName: `Round ${letters(round)} ${letters(n)}`,
            lastName: `Run ${letters(plan.runId)}`,
            email: `badge${n}.${entry.participationId}@multi.example`,
            extra: false,
          })),
        };
        const { answer, ok } = await timed(
          submit ? 'submit S04' : 'draft save S04',
          agent,
          `/oga/forms/${FORM}/${submit ? 'submit' : 'draft'}`,
          submit ? 'POST' : 'PUT',
          entry.token,
          jsonBody({ data, version: entry.version }),
        );
        if (ok) {
          entry.version = (answer.body!.data as { version: number }).version;
          results.drafts[entry.participationId] = { version: entry.version, data };
          if (submit) results.submits[entry.participationId] = (results.submits[entry.participationId] ?? 0) + 1;
        } else {
          // Unknown whether it was stored (a timeout) or refused: this exhibitor leaves the run.
          results.uncertain.push(entry.participationId);
        }
      }
    };
    const organiser = async (token: string, n: number) => {
      for (let round = n; Date.now() < deadline; round += 1) {
        if (round % 2 === 0) await timed('organiser progress matrix', agent, '/oga/organiser/progress', 'GET', token);
        else await timed('organiser submissions export (S04)', agent, `/oga/organiser/submissions/${FORM}/export`, 'GET', token, undefined, false);
      }
    };
    await Promise.all([...Array.from({ length: plan.exhibitorUsers }, (_, user) => exhibitor(user)), ...plan.organisers.map((token, n) => organiser(token, n))]);
    agent.destroy();
  } else {
    const device = async ({ token, participationId }: { token: string; participationId: number }, index: number) => {
      // A device each: its own connection, as 500 tablets at the doors have.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let batch = 0; Date.now() < deadline; batch += 1) {
        const scans = Array.from({ length: plan.scansPerBatch }, (_, n) => ({
          clientScanId: `${plan.runId}-d${index}-${batch}-${n}`,
          badgeCode: `${plan.eventCode}-M${plan.runId}-${Math.floor(Math.random() * plan.badgesPerParticipation)}`,
          scannedAt: new Date().toISOString(),
        }));
        const body = jsonBody({ scans });
        // Every tenth batch is sent twice (an app that timed out and resent): it must make no second lead.
        for (let send = 0; send < (batch % 10 === 9 ? 2 : 1); send += 1) {
          const { answer, ok } = await timed('scan batch', agent, '/oga/leads/scans', 'POST', token, body);
          if (!ok) continue;
          const outcome = answer.body!.data as { results: Array<{ clientScanId: string; status: string; reason?: string; leadId: number | null }> };
          for (const result of outcome.results) {
            const scan = scans.find((s) => s.clientScanId === result.clientScanId)!;
            results.scans.push({
              participationId,
              clientScanId: result.clientScanId,
              badgeCode: scan.badgeCode,
              status: result.status,
              reason: result.reason,
              leadId: result.leadId,
            });
          }
        }
      }
      agent.destroy();
    };
    await Promise.all(plan.devices.map((d, index) => device(d, index)));
  }
  clearTimeout(warmed);
  results.elapsedSeconds = (performance.now() - started) / 1000;
  return results;
}

if (process.argv[1]?.endsWith('mix.ts')) {
  const [planPath, resultsPath] = process.argv.slice(2);
  const plan = JSON.parse(readFileSync(planPath!, 'utf8')) as Plan;
  runMix(plan).then(
    (results) => writeFileSync(resultsPath!, JSON.stringify(results)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
