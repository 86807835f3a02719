// Types for the kafkajs 2.2.4 internals the Kafka adapter's tests run (they ship without types).
declare module 'kafkajs/src/consumer/runner' {
  import type { EachMessagePayload } from 'kafkajs';
  interface RunnerOptions {
    logger: unknown;
    consumerGroup: unknown;
    instrumentationEmitter: { emit(type: string, payload?: unknown): void };
    eachMessage: (payload: EachMessagePayload) => Promise<void>;
    heartbeatInterval: number;
    onCrash: (error: Error) => void;
    concurrency: number;
    autoCommit?: boolean;
  }
  class Runner {
    constructor(options: RunnerOptions);
    running: boolean;
    processEachMessage(batch: { topic: string; partition: number; messages: unknown[] }): Promise<void>;
  }
  export = Runner;
}

declare module 'kafkajs/src/loggers' {
  import type { logCreator } from 'kafkajs';
  export function createLogger(options: { level: number; logCreator: logCreator }): unknown;
}

declare module 'kafkajs/src/protocol/encoder' {
  class Encoder {
    writeInt8(value: number): Encoder;
    writeVarInt(value: number): Encoder;
    writeVarLong(value: number): Encoder;
    writeVarIntBytes(value: Buffer | string | null): Encoder;
    writeVarIntArray(array: Encoder[]): Encoder;
    readonly buffer: Buffer;
  }
  export = Encoder;
}

declare module 'kafkajs/src/protocol/recordBatch/header/v0' {
  import type Encoder from 'kafkajs/src/protocol/encoder';
  function encodeHeader(header: { key: string; value: Buffer | string | null }): Encoder;
  export = encodeHeader;
}

declare module 'kafkajs/src/protocol/recordBatch/record/v0/decoder' {
  import type { KafkaMessage } from 'kafkajs';
  function decodeRecord(decoder: unknown, batchContext: { firstOffset: string; firstTimestamp: string }): KafkaMessage;
  export = decodeRecord;
}

declare module 'kafkajs/src/protocol/decoder' {
  class Decoder {
    constructor(buffer: Buffer);
  }
  export = Decoder;
}

declare module 'kafkajs/src/protocol/error' {
  import type { KafkaJSProtocolError } from 'kafkajs';
  /** The KafkaJSProtocolError kafkajs builds from a broker's error code (type, retriable, message). */
  export function createErrorFromCode(code: number): KafkaJSProtocolError & { type: string };
}
