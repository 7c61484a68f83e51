import type { LoginResponse, UserType } from '@portal/contract';
// Plain values, no schemas: the sign-in page loads without zod.
import { ADMIN_ROLE_ID, sessionKeys, sessionValues } from '@portal/contract/session';
import { useSyncExternalStore } from 'react';

/** The signed-in user, kept in localStorage under the seven keys of docs/spec.md section 3. */
export interface Session {
  token: string;
  username: string;
  userId: number;
  userType: UserType;
  createdAt: string;
  profilePic: string | null;
  roleId: number;
  /** Seconds since the epoch, from the token's exp claim. */
  exp: number;
  /**
   * The server refused this session until its user sets up a second factor (their role came
   * to require one): kept in memory only, as the server says it again at the next request.
   */
  mustEnrol?: boolean;
}

/** The token's exp claim in seconds, or null when it has none or cannot be decoded. */
function readExp(token: string): number | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : null;
  } catch {
    return null;
  }
}

// Anything unknown reads as staff, whose pages each ask the server's menu anyway.
const userTypeOf = (stored: string | null): UserType =>
  stored === 'Doctor' || stored === 'Assistant' ? stored : 'Web';

const isExpired = (exp: number) => exp * 1000 <= Date.now();

function load(): Session | null {
  const token = localStorage.getItem('token');
  if (!token) return null;
  const exp = readExp(token);
  if (exp === null || isExpired(exp)) {
    clearStorage();
    return null;
  }
  return {
    token,
    exp,
    username: localStorage.getItem('username') ?? '',
    userId: Number(localStorage.getItem('userId')),
    userType: userTypeOf(localStorage.getItem('userType')),
    createdAt: localStorage.getItem('createdAt') ?? '',
    profilePic: localStorage.getItem('profilePic') || null,
    roleId: Number(localStorage.getItem('roleId')),
  };
}

function clearStorage() {
  for (const key of sessionKeys) localStorage.removeItem(key);
}

let current: Session | null = load();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const sessionStore = {
  get: () => current,
  /** The session, or null (and signed out) once its token has expired. */
  getValid(): Session | null {
    if (current && isExpired(current.exp)) sessionStore.clear();
    return current;
  },
  start(answer: LoginResponse) {
    const values = sessionValues(answer);
    for (const key of sessionKeys) localStorage.setItem(key, values[key]);
    current = load();
    emit();
  },
  setProfilePic(profilePic: string | null) {
    localStorage.setItem('profilePic', profilePic ?? '');
    current = load();
    emit();
  },
  requireEnrolment() {
    if (!current || current.mustEnrol) return;
    current = { ...current, mustEnrol: true };
    emit();
  },
  /** A second factor is set up: the session serves again. */
  enrolmentDone() {
    if (!current?.mustEnrol) return;
    current = { ...current, mustEnrol: false };
    emit();
  },
  clear() {
    clearStorage();
    current = null;
    emit();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// Another tab signing in or out changes this one too.
window.addEventListener('storage', (event) => {
  if (event.key === null || (sessionKeys as readonly string[]).includes(event.key)) {
    current = load();
    emit();
  }
});

export const useSession = () => useSyncExternalStore(sessionStore.subscribe, sessionStore.get);

export const isAdministrator = (session: Session) => session.userType === 'Web' && session.roleId === ADMIN_ROLE_ID;
/** A doctor, never their assistant: plan decisions, patient links and the Assistants screen are theirs alone. */
export const isDoctor = (session: Session) => session.userType === 'Doctor';
/** A doctor's assistant (docs/decisions/assistants.md § Assistants). */
export const isAssistant = (session: Session) => session.userType === 'Assistant';
/** The doctors' side of the portal: a doctor or an assistant, who see their doctors' cases and the doctors' menu. */
export const isDoctorSide = (session: Session) => isDoctor(session) || isAssistant(session);
