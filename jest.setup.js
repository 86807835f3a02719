// Quiet logs in tests unless LOG_LEVEL is set by the developer.
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
