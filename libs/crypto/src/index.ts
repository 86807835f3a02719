export { DecryptionError, InvalidKeyError, KEY_BYTES, generateKey, keyFromBase64 } from './aes-gcm';
export { KeyRing, UnknownKeyVersionError } from './key-ring';
export {
  RecordCipher,
  newRecordKey,
  openRecordKey,
  rewrapRecordKey,
  encryptRecord,
  decryptRecord,
  type RecordContext,
  type WrappedDataKey,
  type EncryptedRecord,
} from './envelope-encryption';
export { fingerprint } from './fingerprint';
export { AesGcmSecretSealer, type SecretSealer } from './secret-sealer';
