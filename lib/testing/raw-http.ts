/**
 * One HTTP request exactly as written — any method Node can send, the path with
 * its escapes untouched — which fetch and browsers refuse to make (TRACE, %FF).
 */
import http from "node:http";

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** The answer in full; a refused connection rejects. */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}
