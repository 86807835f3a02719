import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { KAFKA_IMAGE, MONGO_IMAGE, mongoAvailability, probeContainerRuntimeSync, resolveKafka, resolveMongo, withMongoDatabase } from './containers';

describe('container resolution', () => {
  it('when the production compose file runs Kafka and MongoDB, then it runs the images the contract suites were run against', () => {
    const compose = readFileSync(resolve(__dirname, '../../../docker-compose.yml'), 'utf8');
    const images = [...compose.matchAll(/^\s+image:\s*(\S+)\s*$/gm)].map((match) => match[1]);

    expect(images).toContain(KAFKA_IMAGE);
    expect(images).toContain(MONGO_IMAGE);
  });

  it('when CI runs Kafka from Maven Central (scripts/kafka-broker/pom.xml), then it is the version of the image compose and testcontainers run', () => {
    const pom = readFileSync(resolve(__dirname, '../../../scripts/kafka-broker/pom.xml'), 'utf8');

    expect(KAFKA_IMAGE).toBe(`apache/kafka:${/<kafka\.version>([^<]+)<\/kafka\.version>/.exec(pom)?.[1]}`);
  });

  const saved = { MONGO_URL: process.env.MONGO_URL, KAFKA_BROKERS: process.env.KAFKA_BROKERS };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('when MONGO_URL is set, then resolveMongo answers it without starting anything', async () => {
    process.env.MONGO_URL = 'mongodb://db.example:27017/x?replicaSet=rs0';

    const resolved = await resolveMongo();

    expect(resolved).toMatchObject({ available: true, url: 'mongodb://db.example:27017/x?replicaSet=rs0' });
    expect(mongoAvailability()).toEqual({ available: true });
  });

  it('when KAFKA_BROKERS is set, then resolveKafka answers it', async () => {
    process.env.KAFKA_BROKERS = 'k1:9092,k2:9092';

    expect(await resolveKafka()).toMatchObject({ available: true, brokers: 'k1:9092,k2:9092' });
  });

  it('when nothing is configured and no container runtime answers, then both resolve as unavailable with a one-line reason', async () => {
    delete process.env.MONGO_URL;
    delete process.env.KAFKA_BROKERS;
    if (probeContainerRuntimeSync().available) return; // a machine with Docker would start real containers here

    const mongo = await resolveMongo();
    const kafka = await resolveKafka();

    expect(mongo).toMatchObject({ available: false, reason: expect.stringContaining('MONGO_URL unset and no container runtime') });
    expect(kafka).toMatchObject({ available: false, reason: expect.stringContaining('KAFKA_BROKERS unset and no container runtime') });
    expect(mongo.available === false && mongo.reason).not.toContain('\n');
    expect(mongoAvailability()).toMatchObject({ available: false });
  });

  it('when a database name is put into a MongoDB URL, then host list and options are kept', () => {
    expect(withMongoDatabase('mongodb://a:1,b:2/old?replicaSet=rs0', 'fresh')).toBe('mongodb://a:1,b:2/fresh?replicaSet=rs0');
    expect(withMongoDatabase('mongodb://localhost:27017', 'fresh')).toBe('mongodb://localhost:27017/fresh');
    expect(withMongoDatabase('mongodb://h:1/?directConnection=true', 'fresh')).toBe('mongodb://h:1/fresh?directConnection=true');
  });
});
