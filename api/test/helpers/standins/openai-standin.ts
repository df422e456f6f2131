// A real local HTTP server speaking the parts of the OpenAI API the app uses
// (chat completions with a JSON-schema response format, and the model list
// that key validation reads), standing in for the provider through
// OPENAI_BASE_URL in API tests and browser tests alike. Its answers are
// deterministic; a test queues failures (wrong reply, rate limit, hang) with fail().
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandinFailure =
  /** 429 with Retry-After: 0 (the SDK retries it). */
  | 'rate-limit'
  /** A reply that is not JSON. */
  | 'malformed'
  /** JSON of the right shape with a category outside the four / a confidence out of range. */
  | 'out-of-range'
  /** 500 from the provider. */
  | 'server-error'
  /** Never answers (the request times out). */
  | 'hang';

export interface StandinRequest {
  path: string;
  authorization: string | undefined;
  body: any;
}

export interface OpenAiStandin {
  /** The base URL to give as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  /** Every request received, in order. */
  requests: StandinRequest[];
  /** The keys it accepts (others get 401 invalid_api_key). */
  validKeys: Set<string>;
  /** Queues failures, answered to the next chat completions in order. */
  fail(...f: StandinFailure[]): void;
  /** Chat completions received so far. */
  completions(): StandinRequest[];
  close(): Promise<void>;
}

export const STANDIN_KEY = 'sk-standin-valid-key-0123456789';
export const STANDIN_USAGE = { prompt_tokens: 1200, completion_tokens: 300 };

/** The category the stand-in suggests: Financial for payment/vendor wording, else Access Control. */
function categoryFor(prompt: string) {
  if (/payment|vendor|invoice|financ/i.test(prompt)) return { category: 'Financial', confidence: 0.87 };
  if (/personal|privacy|hr data|employee data/i.test(prompt)) return { category: 'Data Privacy', confidence: 0.81 };
  return { category: 'Access Control', confidence: 0.74 };
}

function profileFor(prompt: string) {
  const riskId = /Risk ID: (\S+)/.exec(prompt)?.[1] ?? 'UNKNOWN';
  return {
    accessRiskId: riskId,
    riskDescription: `Stand-in profile of ${riskId}`,
    riskNature: 'Segregation of duties conflict: the same person can create and approve.',
    functionAnalysis: 'The functions combine maintenance of master data with posting of transactions.',
    severityAssessment: {
      level: 'High',
      reasoning: 'Both functions are executable in production by one user.',
      dimensions: [
        { dimension: 'Financial impact', observation: 'Payments can be released', impact: 'High' },
        { dimension: 'Detectability', observation: 'No monitoring control found', impact: 'Medium' },
      ],
    },
    conclusion: 'The access should be removed or mitigated.',
    recommendedActions: ['Remove one of the conflicting roles', 'Add a monitoring control'],
  };
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function completion(content: string, model: string) {
  return {
    id: `chatcmpl-standin-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: { ...STANDIN_USAGE, total_tokens: STANDIN_USAGE.prompt_tokens + STANDIN_USAGE.completion_tokens },
  };
}

export async function startOpenAiStandin(opts: { port?: number } = {}): Promise<OpenAiStandin> {
  const requests: StandinRequest[] = [];
  const validKeys = new Set([STANDIN_KEY]);
  const queue: StandinFailure[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        /* left null */
      }
      const path = (req.url ?? '').replace(/\?.*$/, '');
      const authorization = req.headers.authorization;
      requests.push({ path, authorization, body });
      const key = authorization?.replace(/^Bearer /, '');
      if (!key || !validKeys.has(key)) {
        return send(res, 401, {
          error: {
            message: `Incorrect API key provided: ${(key ?? '').slice(0, 6)}****. You can find your API key at https://platform.openai.com/account/api-keys.`,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        });
      }
      if (req.method === 'GET' && path === '/v1/models') {
        return send(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 1, owned_by: 'standin' }] });
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        const failure = queue.shift();
        const model = String(body?.model ?? 'gpt-4o-mini');
        if (failure === 'hang') {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        if (failure === 'rate-limit') {
          return send(
            res,
            429,
            { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
            { 'retry-after-ms': '10', 'retry-after': '0' },
          );
        }
        if (failure === 'server-error') return send(res, 500, { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } });
        const prompt = (body?.messages ?? [])
          .filter((m: { role?: string }) => m.role === 'user')
          .map((m: { content?: string }) => m.content ?? '')
          .join('\n');
        const format = String(body?.response_format?.json_schema?.name ?? '');
        if (failure === 'malformed') return send(res, 200, completion('Sure! The category is probably Financial.', model));
        if (failure === 'out-of-range') {
          const bad = format === 'risk_profile' ? { accessRiskId: 'X', conclusion: 3 } : { category: 'Compliance', confidence: 7 };
          return send(res, 200, completion(JSON.stringify(bad), model));
        }
        const answer = format === 'risk_profile' ? profileFor(prompt) : categoryFor(prompt);
        return send(res, 200, completion(JSON.stringify(answer), model));
      }
      send(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error', param: null, code: null } });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    validKeys,
    fail: (...f) => queue.push(...f),
    completions: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
