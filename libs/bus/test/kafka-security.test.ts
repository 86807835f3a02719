import { kafkajsSecurity } from '../src/kafka/kafka-bus';

describe("Kafka TLS and SASL as kafkajs's client options", () => {
  const ca = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');

  it('when a CA and SCRAM credentials are configured, then kafkajs gets ssl trusting that CA and sasl with the mechanism, user and password', () => {
    expect(kafkajsSecurity({ ssl: { ca }, sasl: { mechanism: 'scram-sha-512', username: 'vault', password: 'p4ss' } })).toEqual({
      ssl: { ca: [ca] },
      sasl: { mechanism: 'scram-sha-512', username: 'vault', password: 'p4ss' },
    });
  });

  it('when TLS is asked without a CA, then kafkajs trusts the system CAs (ssl: true); with nothing configured it gets neither option', () => {
    expect(kafkajsSecurity({ ssl: true })).toEqual({ ssl: true });
    expect(kafkajsSecurity(undefined)).toEqual({});
  });

  it('when SASL is configured without TLS, then the start fails (the password would cross the network in clear)', () => {
    expect(() => kafkajsSecurity({ sasl: { mechanism: 'plain', username: 'vault', password: 'p4ss' } })).toThrow(/SASL needs TLS/);
  });
});
