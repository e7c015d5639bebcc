/**
 * The OpenAPI 3.1 description of the agent API, generated from the zod schemas
 * the routes validate with (lib/validation/agent-api.ts), so the document cannot
 * drift from what the API accepts. Only the paths and their prose are written here.
 */
import { z } from "zod";
import {
  errorBody,
  forgetInput,
  memory,
  place,
  recallBody,
  recalledMemory,
  recallInput,
  recallOutput,
  rememberInput,
  rememberOutput,
} from "@/lib/validation/agent-api";
import { publicOrigin } from "@/lib/http/public-origin";
import { MAX_BODY_BYTES } from "./request";

type JsonSchema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The named schemas, each converted with its cross-references pointing at components. */
function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  registry.add(memory, { id: "Memory" });
  registry.add(place, { id: "Place" });
  registry.add(recalledMemory, { id: "RecalledMemory" });
  registry.add(recallOutput, { id: "RecallResponse" });
  registry.add(rememberOutput, { id: "RememberResponse" });
  registry.add(errorBody, { id: "Error" });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` });
  const all: Record<string, JsonSchema> = {
    ...schemas,
    RecallRequest: z.toJSONSchema(recallBody, { io: "input" }),
    RememberRequest: z.toJSONSchema(rememberInput, { io: "input" }),
  };
  // Each schema carries its own $schema/$id; inside the document they are only noise.
  for (const schema of Object.values(all)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return all;
}

/** Query (or path) parameters from the properties of an object schema. */
function parameters(schema: z.ZodObject, where: Record<string, "query" | "path">): JsonSchema[] {
  const json = z.toJSONSchema(schema, { io: "input" }) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where[name] ?? "query",
      required: where[name] === "path" || (json.required ?? []).includes(name),
      description,
      schema: rest,
    };
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

const COMMON_ERRORS = {
  "400": errorResponse("The path is not a valid URL: a % that does not start an escape of UTF-8 bytes (`malformed_request`)."),
  "401": errorResponse("No key, a malformed, unknown, revoked or expired key (`unauthorized`; an expired key is told so, with the day)."),
  "422": errorResponse("A field has the wrong type or value; the message names it (`invalid_request`)."),
  "429": {
    ...errorResponse("Too many requests with this key (`rate_limited`); wait as Retry-After says."),
    headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } },
  },
  "500": errorResponse("Something went wrong on the server (`internal_error`); nothing is said about what."),
};

const PLACE_ERRORS = {
  "403": errorResponse("The asker cannot read the channel (`cannot_read`)."),
  "404": errorResponse("No such channel in the agent's workspace (`channel_not_found`) or no such person (`asker_not_member`)."),
};

const RECALL_DESCRIPTION =
  "The facts the agent may use here — workspace facts, this channel's facts, and in a DM with one person that " +
  "person's facts — at most `limit` (40 when left out). With `q`: pinned facts first, then the facts that answer " +
  "the question best, then the rest by recency; without it, pinned then the most recently updated. With `budget`, " +
  "the prompt section (header and lines, counted with gpt-tokenizer's o200k_base encoding) fits in that many " +
  "tokens: facts that do not fit are left out whole. Each fact says `why` it is there and at which rank; the " +
  "answer says how it was ranked, how many facts were allowed here (`considered`) and how many of those were " +
  "left out (`omitted`). Ranking only orders the facts the scope rules allow here; it never adds one.";

const RECALL_RESPONSES = {
  "200": {
    description: "The place, the facts with their receipts, and the prompt section.",
    content: { "application/json": { schema: ref("RecallResponse") } },
  },
  ...COMMON_ERRORS,
  ...PLACE_ERRORS,
};

let made: { server: string; document: JsonSchema } | null = null;

/** The document, made once per public address (AUTH_URL); relative to the site itself when none is configured. */
export function openApiDocument(): JsonSchema {
  const server = publicOrigin() ?? "/";
  if (made?.server !== server) made = { server, document: describeApi(server) };
  return made.document;
}

function describeApi(server: string): JsonSchema {
  return {
    openapi: "3.1.0",
    info: {
      title: "Mnemo agent API",
      version: "1.0.0",
      description:
        "Agents recall, remember and forget facts. Every fact keeps its source and its scope, and the scope decides " +
        "where it may be recalled. The place is always derived from Mnemo's own channel table: name the channel " +
        "and the person you are answering. Never send secrets; they are refused.",
      license: { name: "Proprietary: all rights reserved" },
    },
    servers: [{ url: server }],
    tags: [
      { name: "recall", description: "What an agent remembers where it is." },
      { name: "memories", description: "Keeping and forgetting facts." },
    ],
    security: [{ agentKey: [] }],
    paths: {
      "/api/v1/recall": {
        get: {
          operationId: "recall",
          tags: ["recall"],
          summary: "The facts to recall in a conversation",
          description: `${RECALL_DESCRIPTION} Any other parameter (such as \`kind\` or \`people\`) is ignored.`,
          parameters: parameters(recallInput, {}),
          responses: RECALL_RESPONSES,
        },
        post: {
          operationId: "recallWithBody",
          tags: ["recall"],
          summary: "The facts to recall in a conversation, asked with a JSON body",
          description:
            `The same call as GET, with its parameters as a JSON object, for questions too long for a URL; the same ` +
            `input gets the same answer. Only those fields are accepted. Bodies are at most ${MAX_BODY_BYTES / 1024} KiB.`,
          requestBody: { required: true, content: { "application/json": { schema: ref("RecallRequest") } } },
          responses: {
            ...RECALL_RESPONSES,
            "400": errorResponse("The body is not JSON, or the path is not a valid URL (`malformed_request`)."),
            "413": errorResponse(`The body is over ${MAX_BODY_BYTES / 1024} KiB (\`too_large\`).`),
            "415": errorResponse("The body is not sent as `application/json` (`unsupported_media_type`)."),
            "422": errorResponse("A field has the wrong type or value, or is not one of the call's (`invalid_request`); the message names it."),
          },
        },
      },
      "/api/v1/memories": {
        post: {
          operationId: "remember",
          tags: ["memories"],
          summary: "Remember a fact",
          description:
            "Kept in the narrowest scope the conversation allows, cleaned to one paragraph of at most 500 characters. " +
            "With `replaces`, the new fact takes the place of a fact the agent could forget here: the old one is " +
            "retired in the same write (never recalled or counted again, its history kept in the new fact's) and " +
            "`replaced` names it; a request for the old id then answers 404 naming the new one — except the same " +
            "write sent again (a retry), which answers 200 `deduplicated` with `replaced`. " +
            `Bodies are at most ${MAX_BODY_BYTES / 1024} KiB.`,
          requestBody: { required: true, content: { "application/json": { schema: ref("RememberRequest") } } },
          responses: {
            "201": { description: "Kept as a new fact.", content: { "application/json": { schema: ref("RememberResponse") } } },
            "200": {
              description: "The same fact was already kept in this scope; it was refreshed (`deduplicated: true`).",
              content: { "application/json": { schema: ref("RememberResponse") } },
            },
            "202": {
              description:
                "Kept as a proposal (`proposed: true`, `memory.status: \"proposed\"`): it waits for a person to approve " +
                "it and is not recalled until then — `proposal_reason` says why (the agent's setting for the scope, or " +
                "text that reads as an instruction). A repeat of a waiting proposal refreshes it and answers 202 again.",
              content: { "application/json": { schema: ref("RememberResponse") } },
            },
            ...COMMON_ERRORS,
            "400": errorResponse("The body is not JSON, or the path is not a valid URL (`malformed_request`)."),
            "403": errorResponse(
              "The asker cannot read the channel (`cannot_read`), or the fact named by `replaces` is one forget refuses " +
                "here: pinned or a person's, or a workspace fact and this is not a public channel (`forbidden`).",
            ),
            "404": errorResponse(
              "No such channel or person (`channel_not_found`, `asker_not_member`), or no fact named by `replaces` that " +
                "the agent could forget here (`not_found`, as forget answers; for a fact already replaced, the message " +
                "names the fact that took its place when the agent may recall it here).",
            ),
            "409": errorResponse("The agent keeps 2,000 facts already (`memory_full`): forget one first, or remember with `replaces`."),
            "413": errorResponse("The body is over 16 KiB (`too_large`)."),
            "415": errorResponse("The body is not sent as `application/json` (`unsupported_media_type`)."),
            "422": errorResponse(
              "A field is wrong (`invalid_request`), the fact is empty (`invalid_fact`) or looks like a credential (`looks_like_secret`).",
            ),
          },
        },
      },
      "/api/v1/memories/{id}": {
        delete: {
          operationId: "forget",
          tags: ["memories"],
          summary: "Forget a fact",
          description:
            "Only a fact the agent could recall here, never a pinned fact or one a person gave, and a workspace fact " +
            "only from a public channel. People can restore it for 7 days.",
          parameters: parameters(forgetInput, { id: "path" }),
          responses: {
            "204": { description: "Forgotten." },
            ...COMMON_ERRORS,
            "403": errorResponse("The asker cannot read the channel (`cannot_read`), or the fact is pinned or a person's (`forbidden`)."),
            "404": errorResponse(
              "No such fact you can forget here (`not_found`: missing, another agent's, or not recallable here; for " +
                "a fact another replaced, the message names that one where the agent may recall it), no such channel or person.",
            ),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        agentKey: {
          type: "http",
          scheme: "bearer",
          description: "An agent key: `mnemo_` followed by at least 32 URL-safe characters. Shown once when made.",
        },
      },
      schemas: componentSchemas(),
    },
  };
}
