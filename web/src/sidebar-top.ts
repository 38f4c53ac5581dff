/**
 * Above the conversation list: New conversation, the model (profile) new conversations use (remembered in this
 * browser) and Import (our JSON export, or a ChatGPT / Claude conversations.json).
 */
import { gql } from './api.js';
import { h, uid } from './dom.js';
import { IMPORT, PROFILES, type ProfileView, type SessionSummary } from './queries.js';

export interface SidebarTopEvents {
  create(): void;
  imported(session: SessionSummary, fileName: string): Promise<void>;
  /** an import is about to run: earlier errors are stale */
  importing(): void;
  error(error: unknown): void;
}

const PROFILE_STORAGE = 'chat.profile';

export class SidebarTop {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;

  constructor(private readonly on: SidebarTopEvents) {
    const profileId = uid('profile');
    this.select = h('select', { id: profileId, class: 'profile-select' });
    this.select.append(h('option', { value: '', text: 'Default profile' }));
    this.select.addEventListener('change', () => rememberProfile(this.select.value));
    const importId = uid('import');
    const importInput = h('input', { id: importId, type: 'file', accept: '.json,application/json', class: 'sr-only' });
    const newButton = h('button', { type: 'button', class: 'new', text: '+ New conversation' });
    newButton.addEventListener('click', () => this.on.create());
    this.element = h(
      'div',
      { class: 'sidebar-top' },
      newButton,
      h(
        'div',
        { class: 'profile-picker' },
        h('label', { for: profileId, text: 'Model for new conversations' }),
        this.select,
      ),
      h('label', { for: importId, class: 'button import-button', text: 'Import conversation (JSON)' }),
      importInput,
    );
    importInput.addEventListener('change', () => {
      const file = importInput.files?.[0];
      importInput.value = '';
      if (file) void this.import(file);
    });
  }

  /** The profile chosen for new conversations (null: the default). */
  get profileId(): string | null {
    return this.select.value || null;
  }

  async loadProfiles(): Promise<void> {
    const { profiles } = await gql<{ profiles: ProfileView[] }>(PROFILES);
    const wanted = rememberedProfile();
    this.select.replaceChildren(
      h('option', { value: '', text: 'Default profile' }),
      ...profiles.map((p) => h('option', { value: p.id, text: `${p.name} · ${p.model}`, selected: p.id === wanted })),
    );
  }

  private async import(file: File): Promise<void> {
    this.on.importing();
    try {
      const { importSession } = await gql<{ importSession: SessionSummary }>(IMPORT, {
        data: await file.text(),
        profileId: this.profileId,
      });
      await this.on.imported(importSession, file.name);
    } catch (error) {
      this.on.error(error);
    }
  }
}

function rememberedProfile(): string {
  try {
    return localStorage.getItem(PROFILE_STORAGE) ?? '';
  } catch {
    return '';
  }
}

function rememberProfile(id: string): void {
  try {
    if (id) localStorage.setItem(PROFILE_STORAGE, id);
    else localStorage.removeItem(PROFILE_STORAGE);
  } catch {
    /* storage disabled: the choice lasts for this page */
  }
}
