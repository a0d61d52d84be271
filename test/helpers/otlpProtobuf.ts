/**
 * A protobuf wire-format reader for OTLP `ExportTraceServiceRequest` bytes (opentelemetry-proto's
 * `collector/trace/v1`, `trace/v1`, `common/v1`, `resource/v1` field numbers), written from the .proto files and
 * independent of the serializer it checks: it turns the bytes back into the OTLP/JSON shape (hex ids, nanosecond
 * times as decimal strings, 64-bit integers as decimal strings), so a decoded request can be read as a JSON export is.
 */
type Json = Record<string, unknown>;

class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array, private readonly end = buf.length) {}
  done(): boolean {
    return this.pos >= this.end;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  fixed64(): bigint {
    let v = 0n;
    for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(this.buf[this.pos + k]);
    this.pos += 8;
    return v;
  }
  fixed32(): number {
    const v = this.buf[this.pos] | (this.buf[this.pos + 1] << 8) | (this.buf[this.pos + 2] << 16) | (this.buf[this.pos + 3] << 24);
    this.pos += 4;
    return v >>> 0;
  }
  bytes(): Uint8Array {
    const n = Number(this.varint());
    const out = this.buf.subarray(this.pos, this.pos + n);
    if (this.pos + n > this.end) throw new Error('truncated field');
    this.pos += n;
    return out;
  }
  /** Each field of the message: its number and a reader of its value by wire type. */
  *fields(): Generator<{ field: number; wire: number }> {
    while (!this.done()) {
      const tag = Number(this.varint());
      yield { field: tag >>> 3, wire: tag & 7 };
    }
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`wire type ${wire} not expected in OTLP`);
  }
}

const text = (b: Uint8Array): string => new TextDecoder('utf-8', { fatal: true }).decode(b);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const signed64 = (v: bigint): bigint => (v >= 1n << 63n ? v - (1n << 64n) : v);

function message(b: Uint8Array, on: (r: Reader, field: number, wire: number) => boolean): void {
  const r = new Reader(b);
  for (const { field, wire } of r.fields()) if (!on(r, field, wire)) r.skip(wire);
}

function anyValue(b: Uint8Array): Json {
  let out: Json = {};
  message(b, (r, f, w) => {
    if (f === 1 && w === 2) out = { stringValue: text(r.bytes()) };
    else if (f === 2 && w === 0) out = { boolValue: r.varint() !== 0n };
    else if (f === 3 && w === 0) out = { intValue: signed64(r.varint()).toString() };
    else if (f === 4 && w === 1) {
      const v = r.fixed64();
      const dv = new DataView(new ArrayBuffer(8));
      dv.setBigUint64(0, v, true);
      out = { doubleValue: dv.getFloat64(0, true) };
    } else if (f === 5 && w === 2) {
      const values: Json[] = [];
      message(r.bytes(), (a, g, x) => (g === 1 && x === 2 ? (values.push(anyValue(a.bytes())), true) : false));
      out = { arrayValue: { values } };
    } else if (f === 6 && w === 2) {
      const values: Json[] = [];
      message(r.bytes(), (a, g, x) => (g === 1 && x === 2 ? (values.push(keyValue(a.bytes())), true) : false));
      out = { kvlistValue: { values } };
    } else if (f === 7 && w === 2) out = { bytesValue: Buffer.from(r.bytes()).toString('base64') };
    else return false;
    return true;
  });
  return out;
}

function keyValue(b: Uint8Array): Json {
  const kv: Json = { key: '', value: {} };
  message(b, (r, f, w) => {
    if (f === 1 && w === 2) kv.key = text(r.bytes());
    else if (f === 2 && w === 2) kv.value = anyValue(r.bytes());
    else return false;
    return true;
  });
  return kv;
}

function withAttributes(b: Uint8Array, extra: (r: Reader, f: number, w: number, o: Json) => boolean): Json {
  const o: Json = { attributes: [] };
  message(b, (r, f, w) => extra(r, f, w, o));
  return o;
}

function span(b: Uint8Array): Json {
  const s: Json = { attributes: [] };
  message(b, (r, f, w) => {
    if (f === 1 && w === 2) s.traceId = hex(r.bytes());
    else if (f === 2 && w === 2) s.spanId = hex(r.bytes());
    else if (f === 3 && w === 2) s.traceState = text(r.bytes());
    else if (f === 4 && w === 2) s.parentSpanId = hex(r.bytes());
    else if (f === 5 && w === 2) s.name = text(r.bytes());
    else if (f === 6 && w === 0) s.kind = Number(r.varint());
    else if (f === 7 && w === 1) s.startTimeUnixNano = r.fixed64().toString();
    else if (f === 8 && w === 1) s.endTimeUnixNano = r.fixed64().toString();
    else if (f === 9 && w === 2) (s.attributes as Json[]).push(keyValue(r.bytes()));
    else if (f === 15 && w === 2) {
      const status: Json = {};
      message(r.bytes(), (q, g, x) => {
        if (g === 2 && x === 2) status.message = text(q.bytes());
        else if (g === 3 && x === 0) status.code = Number(q.varint());
        else return false;
        return true;
      });
      s.status = status;
    } else if (f === 16 && w === 5) s.flags = r.fixed32();
    else return false;
    return true;
  });
  return s;
}

/** Decodes `ExportTraceServiceRequest` bytes into the OTLP/JSON document they stand for. */
export function decodeTraceRequest(bytes: Uint8Array): { resourceSpans: Json[] } {
  const resourceSpans: Json[] = [];
  message(bytes, (r, f, w) => {
    if (f !== 1 || w !== 2) return false;
    const rs: Json = { scopeSpans: [] };
    message(r.bytes(), (q, g, x) => {
      if (g === 1 && x === 2) rs.resource = withAttributes(q.bytes(), (a, h, y, o) => (h === 1 && y === 2 ? ((o.attributes as Json[]).push(keyValue(a.bytes())), true) : false));
      else if (g === 2 && x === 2) {
        const ss: Json = { spans: [] };
        message(q.bytes(), (a, h, y) => {
          if (h === 1 && y === 2) {
            const scope: Json = {};
            message(a.bytes(), (c, k, z) => {
              if (k === 1 && z === 2) scope.name = text(c.bytes());
              else if (k === 2 && z === 2) scope.version = text(c.bytes());
              else return false;
              return true;
            });
            ss.scope = scope;
          } else if (h === 2 && y === 2) (ss.spans as Json[]).push(span(a.bytes()));
          else return false;
          return true;
        });
        (rs.scopeSpans as Json[]).push(ss);
      } else return false;
      return true;
    });
    resourceSpans.push(rs);
    return true;
  });
  return { resourceSpans };
}
