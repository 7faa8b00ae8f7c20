// How the tests read a JUnit report as its consumers do: libxml2 (the parser
// under GitLab's Nokogiri) parses it, strictly as XML 1.0, and checks it
// against test/fixtures/junit/junit.xsd, the dialect Jenkins, GitLab and the
// GitHub test reporters read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { ROOT } from './support.ts';

const schema = XsdValidator.fromDoc(XmlDocument.fromString(readFileSync(join(ROOT, 'test/fixtures/junit/junit.xsd'), 'utf8')));

// The parsed report, for XPath questions; throws, naming the problem, when
// the text is not well-formed or not valid.
export function readJunit(text: string): XmlDocument {
  const doc = XmlDocument.fromString(text);
  schema.validate(doc);
  return doc;
}

// Every value an XPath selects (attributes, or elements' text).
export const values = (doc: XmlDocument, xpath: string): string[] => doc.find(xpath).map((node) => node.content);
