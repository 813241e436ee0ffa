// A small client for the Connect protocol (https://connectrpc.com/docs/protocol): JSON unary calls and
// enveloped server streams over fetch. Errors carry the Connect code and the google.rpc.ErrorInfo reason.

export class ApiError extends Error {
  constructor(code, message, reason, metadata) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.metadata = metadata;
  }
}

export async function call(service, method, body) {
  const response = await connected(fetch(`/duelhall.v1.${service}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", "connect-protocol-version": "1" },
    body: JSON.stringify(body),
  }));
  const data = await connected(response.json());
  if (!response.ok) throw toError(data);
  return data;
}

// Calls onMessage for each streamed message until the stream ends; resolves then, rejects with ApiError.
export async function stream(service, method, body, onMessage, signal) {
  const payload = new TextEncoder().encode(JSON.stringify(body));
  const envelope = new Uint8Array(5 + payload.length);
  new DataView(envelope.buffer).setUint32(1, payload.length);
  envelope.set(payload, 5);
  const response = await connected(fetch(`/duelhall.v1.${service}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/connect+json", "connect-protocol-version": "1" },
    body: envelope,
    signal,
  }));
  if (!response.ok) throw toError(await connected(response.json()));
  const reader = response.body.getReader();
  try {
    let buffer = new Uint8Array(0);
    for (;;) {
      const { done, value } = await connected(reader.read());
      if (done) throw new ApiError("unavailable", "the stream ended without its end message", "", {});
      buffer = concat(buffer, value);
      while (buffer.length >= 5) {
        const view = new DataView(buffer.buffer, buffer.byteOffset);
        const flags = view.getUint8(0);
        const size = view.getUint32(1);
        if (buffer.length < 5 + size) break;
        const message = JSON.parse(new TextDecoder().decode(buffer.subarray(5, 5 + size)));
        buffer = buffer.slice(5 + size);
        if (flags & 0x02) {
          if (message.error) throw toError(message.error);
          return;
        }
        onMessage(message);
      }
    }
  } finally {
    // However the reading stops (the end, an error, onMessage throwing), the stream is closed: left open, the
    // server would keep it, and one of the streams it takes, until the page goes.
    reader.cancel().catch(() => {});
  }
}

// fetch rejects with a TypeError when the connection fails or drops: that is the server unreachable, worth a
// retry, unlike an error of the page's own.
async function connected(promise) {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError("unavailable", `the server is unreachable (${error.message})`,
      "", {});
    throw error;
  }
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function toError(error) {
  for (const detail of error.details || []) {
    if (detail.type === "google.rpc.ErrorInfo") {
      const info = decodeErrorInfo(base64Bytes(detail.value));
      return new ApiError(error.code, error.message || "", info.reason, info.metadata);
    }
  }
  return new ApiError(error.code || "unknown", error.message || "", "", {});
}

export function base64Bytes(text) {
  const binary = atob(text + "===".slice((text.length + 3) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function bytesBase64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

// google.rpc.ErrorInfo: reason = 1, domain = 2, metadata = 3 (map<string, string>), in protobuf binary.
function decodeErrorInfo(bytes) {
  const info = { reason: "", domain: "", metadata: {} };
  for (const [field, value] of fields(bytes)) {
    if (field === 1) info.reason = text(value);
    else if (field === 2) info.domain = text(value);
    else if (field === 3) {
      const entry = Object.fromEntries(fields(value));
      info.metadata[text(entry[1] || new Uint8Array())] = text(entry[2] || new Uint8Array());
    }
  }
  return info;
}

function* fields(bytes) {
  let at = 0;
  const varint = () => {
    let result = 0, shift = 0, byte;
    do { byte = bytes[at++]; result += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
    return result;
  };
  while (at < bytes.length) {
    const key = varint();
    const wire = key & 7;
    if (wire === 2) {
      const size = varint();
      yield [Math.floor(key / 8), bytes.subarray(at, at + size)];
      at += size;
    } else if (wire === 0) varint();
    else throw new Error(`unexpected wire type ${wire} in ErrorInfo`);
  }
}

const text = (bytes) => new TextDecoder().decode(bytes);
