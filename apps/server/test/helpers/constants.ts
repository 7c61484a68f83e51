import pino from 'pino';

export const testAdmin = { username: 'admin', password: 'admin-password' };
export const silentLogger = pino({ level: 'silent' });
