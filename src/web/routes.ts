// The web interface's pages: Weblate's addresses (those the API's web_url, translate_url and share_url name) and their handlers.
import type { WebAnswer, WebContext } from './context.js';
import { editProfile, login, loginPage, logout, logoutPage, profilePage } from './pages/accounts.js';
import { startAutoTranslation } from './pages/autotranslate.js';
import { bulkEdit, bulkEditPage } from './pages/bulk-edit.js';
import { changesPage } from './pages/changes.js';
import { dismissCheck, previewChecksFragment } from './pages/checks.js';
import { dashboard, searchPage } from './pages/dashboard.js';
import { discussionAction, isDiscussionAction } from './pages/discussion.js';
import { editorPage, saveTranslation } from './pages/editor.js';
import { editLabels, labelsPage } from './pages/labels.js';
import { addNewLanguage, newLanguagePage } from './pages/new-language.js';
import { componentPage, engagePage, gitExportPage, languagePage, languagesPage, projectPage, translationPage } from './pages/overview.js';
import { replacePage, replaceStrings } from './pages/replace.js';
import { repositoryOperation, repositoryPage } from './pages/repository.js';
import { screenshotAction, screenshotImagePage, screenshotListPage, screenshotPage, uploadScreenshot } from './pages/screenshots.js';
import { uploadTranslationFile } from './pages/upload.js';
import { zenPage } from './pages/zen.js';

type Handler = (ctx: WebContext) => WebAnswer | Promise<WebAnswer>;

export interface WebRoute {
  path: string;
  methods: { GET?: Handler; POST?: Handler };
  /** A POST needs a signed-in user (anonymous visitors are sent to sign in). */
  signedIn?: boolean;
}

export const WEB_ROUTES: readonly WebRoute[] = [
  { path: '/', methods: { GET: dashboard } },
  { path: '/projects/', methods: { GET: dashboard } },
  { path: '/search/', methods: { GET: searchPage } },
  { path: '/projects/{project}/', methods: { GET: projectPage } },
  { path: '/projects/{project}/{component}/', methods: { GET: componentPage } },
  { path: '/projects/{project}/{component}/{language}/', methods: { GET: translationPage } },
  {
    path: '/translate/{project}/{component}/{language}/',
    methods: { GET: (ctx) => editorPage(ctx), POST: (ctx) => (isDiscussionAction(ctx) ? discussionAction(ctx) : saveTranslation(ctx)) },
    signedIn: true,
  },
  { path: '/zen/{project}/{component}/{language}/', methods: { GET: zenPage } },
  { path: '/bulk-edit/{project}/{component}/{language}/', methods: { GET: bulkEditPage, POST: bulkEdit }, signedIn: true },
  { path: '/replace/{project}/{component}/{language}/', methods: { GET: replacePage, POST: replaceStrings }, signedIn: true },
  { path: '/translate/{project}/{component}/{language}/checks/', methods: { POST: previewChecksFragment }, signedIn: true },
  { path: '/translate/{project}/{component}/{language}/dismiss/', methods: { POST: dismissCheck }, signedIn: true },
  { path: '/upload/{project}/{component}/{language}/', methods: { POST: uploadTranslationFile }, signedIn: true },
  { path: '/auto-translate/{project}/{component}/{language}/', methods: { POST: startAutoTranslation }, signedIn: true },
  { path: '/repository/{project}/{component}/', methods: { GET: repositoryPage, POST: repositoryOperation }, signedIn: true },
  { path: '/new-lang/{project}/{component}/', methods: { GET: newLanguagePage, POST: addNewLanguage }, signedIn: true },
  { path: '/screenshots/{project}/{component}/', methods: { GET: (ctx) => screenshotListPage(ctx), POST: uploadScreenshot }, signedIn: true },
  { path: '/screenshot/{id}/', methods: { GET: (ctx) => screenshotPage(ctx), POST: screenshotAction }, signedIn: true },
  { path: '/screenshot/{id}/image/', methods: { GET: screenshotImagePage } },
  { path: '/git/{project}/{component}/', methods: { GET: gitExportPage } },
  { path: '/labels/{project}/', methods: { GET: labelsPage, POST: editLabels }, signedIn: true },
  { path: '/languages/', methods: { GET: languagesPage } },
  { path: '/languages/{language}/', methods: { GET: languagePage } },
  { path: '/changes/', methods: { GET: changesPage } },
  { path: '/engage/{project}/', methods: { GET: engagePage } },
  { path: '/engage/{project}/{component}/{language}/', methods: { GET: engagePage } },
  { path: '/accounts/login/', methods: { GET: loginPage, POST: login } },
  { path: '/accounts/logout/', methods: { GET: logoutPage, POST: logout } },
  { path: '/accounts/profile/', methods: { GET: profilePage, POST: editProfile }, signedIn: true },
];
