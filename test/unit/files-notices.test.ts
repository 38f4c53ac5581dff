import { describe, expect, it } from 'vitest';
import { exportMarkdown } from '../../src/domain/export.js';
import { makeMessage } from '../../src/domain/types.js';
import { publicUploadNotices } from '../../src/domain/upload-notices.js';
import { imageBudget, imageNotice, selectImagesWithinBudget, uploadNotice } from '../../src/files/notices.js';

const id = 'sess-1';

describe('uploadNotice', () => {
  it('matches the seed text for one file', () => {
    expect(uploadNotice([`session_files/${id}/filename.pdf`])).toBe(
      '[Uploaded files on disk:\n- filename.pdf → session_files/sess-1/filename.pdf]',
    );
  });
  it('one line per file, closing bracket on the last', () => {
    expect(uploadNotice([`session_files/${id}/a.pdf`, `session_files/${id}/b (1).csv`])).toBe(
      '[Uploaded files on disk:\n- a.pdf → session_files/sess-1/a.pdf\n- b (1).csv → session_files/sess-1/b (1).csv]',
    );
  });
  it('empty for no files', () => expect(uploadNotice([])).toBe(''));
});

describe('imageNotice', () => {
  it('all in context (seed text)', () => {
    expect(imageNotice([`session_files/${id}/image_1.png`, `session_files/${id}/image_2.jpg`], [])).toBe(
      '[2 images attached inline — already in your context, no extra loading needed.\n' +
        'On disk: session_files/sess-1/image_1.png, session_files/sess-1/image_2.jpg]',
    );
  });
  it('some not loaded (seed text)', () => {
    expect(
      imageNotice(
        [`session_files/${id}/image_1.png`],
        [`session_files/${id}/image_2.png`, `session_files/${id}/image_3.png`],
      ),
    ).toBe(
      '[3 images attached inline — 1 are in your context, the rest were not loaded;\n' +
        'open them with image_view: session_files/sess-1/image_2.png, session_files/sess-1/image_3.png]',
    );
  });
  it('singular forms', () => {
    expect(imageNotice([`session_files/${id}/image_1.png`], [])).toBe(
      '[1 image attached inline — already in your context, no extra ' +
        'loading needed.\nOn disk: session_files/sess-1/image_1.png]',
    );
    expect(imageNotice([], [`session_files/${id}/image_1.png`])).toBe(
      '[1 image attached inline — it was not loaded;\nopen it with image_view: session_files/sess-1/image_1.png]',
    );
  });
  it('none loaded of several', () => {
    expect(imageNotice([], ['p/image_1.png', 'p/image_2.png'])).toBe(
      '[2 images attached inline — 0 are in your context, the rest were ' +
        'not loaded;\nopen them with image_view: p/image_1.png, p/image_2.png]',
    );
  });
  it('empty for no images', () => expect(imageNotice([], [])).toBe(''));
});

describe('image budget', () => {
  it('is 0.8 × window − context tokens, never negative', () => {
    expect(imageBudget(10_000, 5_000)).toBe(3_000);
    expect(imageBudget(10_000, 9_000)).toBe(0);
    expect(imageBudget(32_768, 0)).toBe(26_214);
  });

  it('admits images in order until the first that does not fit', () => {
    const imgs = [
      { relPath: 'a', tokens: 1026 },
      { relPath: 'b', tokens: 4096 },
      { relPath: 'c', tokens: 258 },
    ];
    const r = selectImagesWithinBudget(imgs, 3000);
    expect(r.inContext.map((i) => i.relPath)).toEqual(['a']);
    expect(r.notLoaded.map((i) => i.relPath)).toEqual(['b', 'c']);
    expect(r.usedTokens).toBe(1026);
  });

  it('prices per image: four 1024² cost four times one', () => {
    const big = { relPath: 'big', tokens: 1026 };
    const small = { relPath: 'small', tokens: 258 };
    expect(selectImagesWithinBudget([big, big], 2052).notLoaded).toHaveLength(0);
    expect(selectImagesWithinBudget([big, big], 2051).notLoaded).toHaveLength(1);
    expect(selectImagesWithinBudget([small, small, small, small], 1032).notLoaded).toHaveLength(0);
  });

  it('everything fits / nothing fits', () => {
    const imgs = [{ relPath: 'a', tokens: 10 }];
    expect(selectImagesWithinBudget(imgs, 10).inContext).toHaveLength(1);
    expect(selectImagesWithinBudget(imgs, 0).notLoaded).toHaveLength(1);
  });
});

describe('publicUploadNotices (shares, Markdown exports)', () => {
  it('keeps file names only, every notice, the rest of the text untouched', () => {
    const text =
      'read these\n\n' +
      uploadNotice(['session_files/abc/spec.pdf', 'session_files/abc/data v2.csv']) +
      ' then [not a notice]\n' +
      uploadNotice(['session_files/abc/b.txt']);
    expect(publicUploadNotices(text)).toBe(
      'read these\n\n[Uploaded files:\n- spec.pdf\n- data v2.csv] then [not a notice]\n[Uploaded files:\n- b.txt]',
    );
    expect(publicUploadNotices('no notice here')).toBe('no notice here');
    expect(publicUploadNotices('[Uploaded files on disk:\n- open')).toBe('[Uploaded files on disk:\n- open');
  });

  it('the Markdown export shows names only', () => {
    const md = exportMarkdown({ name: 'x', createdAt: new Date(0), lastActive: new Date(0) } as never, [
      makeMessage({ role: 'user', content: `hi\n\n${uploadNotice(['session_files/abc/spec.pdf'])}` }),
    ]);
    expect(md).toContain('[Uploaded files:\n- spec.pdf]');
    expect(md).not.toContain('session_files/abc/spec.pdf]');
  });
});
