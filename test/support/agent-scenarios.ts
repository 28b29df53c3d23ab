// The agent fixture scenarios shared by the tests and the bench: a start page, a prompt, the
// decisions the scripted model makes (reading refs from each observation), the products expected.
import { PRODUCTS, type Product } from './agent-site.ts';
import { call, refOf, type PlanStep } from './agent-script.ts';

export interface Scenario {
  title: string;
  path: string;
  prompt: string;
  plan: PlanStep[];
  expect: Product[];
  /** The page works without JavaScript (the plain-HTTP interaction path can do it). */
  plainHtml: boolean;
}

/** The interactive scenarios: plan (decisions) and the products expected back. */
export const SCENARIOS: Scenario[] = [
  {
    title: 'searches with a form: results appear only after typing and submitting',
    path: '/shop',
    plainHtml: true,
    prompt: 'Search the shop for kettles and return every result',
    plan: [(o) => [call.type(refOf(o, /searchbox|textbox/), 'kettle', true)], () => [call.extract()], () => [call.finish('all results extracted')]],
    expect: PRODUCTS.filter((p) => p.name.includes('Kettle')),
  },
  {
    title: 'clicks "Load more" until every product is shown',
    path: '/catalog',
    plainHtml: false,
    prompt: 'Return every product of the catalog',
    plan: [
      (o) => [call.click(refOf(o, /button "Load more"/))],
      (o) => [call.click(refOf(o, /button "Load more"/))],
      () => [call.extract()],
      () => [call.finish()],
    ],
    expect: PRODUCTS.slice(0, 9),
  },
  {
    title: 'opens a tab to reach the products behind it',
    path: '/tabs',
    plainHtml: false,
    prompt: 'Return the teapots',
    plan: [(o) => [call.click(refOf(o, /tab "Teapots"/))], () => [call.extract()], () => [call.finish()]],
    expect: PRODUCTS.filter((p) => p.name.includes('Teapot')),
  },
  {
    title: 'pages through results by clicking Next, extracting each page',
    path: '/list?page=1',
    plainHtml: true,
    prompt: 'Return all products from every page',
    plan: [
      () => [call.extract()],
      (o) => [call.click(refOf(o, /link "Next page"/))],
      () => [call.extract()],
      (o) => [call.click(refOf(o, /link "Next page"/))],
      () => [call.extract()],
      () => [call.finish()],
    ],
    expect: PRODUCTS.slice(0, 9),
  },
  {
    title: 'opens an accordion (<details>) to reach the accessories',
    path: '/accordion',
    plainHtml: true,
    prompt: 'Return the accessories',
    plan: [(o) => [call.click(refOf(o, /"Show accessories"/))], () => [call.extract()], () => [call.finish()]],
    expect: PRODUCTS.slice(7),
  },
  {
    title: 'accepts a cookie banner that hides the deals',
    path: '/banner',
    plainHtml: false,
    prompt: "Return today's deals",
    plan: [(o) => [call.click(refOf(o, /button "Accept all"/))], () => [call.extract()], () => [call.finish()]],
    expect: PRODUCTS.slice(3, 5),
  },
];
