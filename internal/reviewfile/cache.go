package reviewfile

import (
	"container/list"
	"os"
	"sync"
)

// Cache keeps the versions of review files a process reads again and
// again (the agent tools: each call names a file), by a name the caller
// chooses (its path under the caller's root), at most max of them: past
// it, the one used least recently goes. One entry a name, not one an
// identity: a file's older version is let go as soon as a newer one is
// read, and where the system gives no inode two files of the same size
// and time are still told apart. Whether an entry still serves is
// Version.Current's rule.
type Cache struct {
	max int

	mu    sync.Mutex
	byKey map[string]*list.Element // of *entry, in lru
	lru   *list.List               // front: used most recently
}

type entry struct {
	key string
	v   *Version
}

// NewCache is a cache of at most max versions.
func NewCache(max int) *Cache {
	return &Cache{max: max, byKey: map[string]*list.Element{}, lru: list.New()}
}

// Get is the version cached under key, or nil; it counts as a use.
func (c *Cache) Get(key string) *Version {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byKey[key]
	if e == nil {
		return nil
	}
	c.lru.MoveToFront(e)
	return e.Value.(*entry).v
}

// Holds reports whether v is the version cached under key, without
// counting as a use: a holder of what it derives from versions keeps it
// for as long as the cache keeps the version.
func (c *Cache) Holds(key string, v *Version) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.byKey[key]
	return e != nil && e.Value.(*entry).v == v
}

// Put records v as what key's file holds now.
func (c *Cache) Put(key string, v *Version) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byKey[key]; e != nil {
		e.Value.(*entry).v = v
		c.lru.MoveToFront(e)
		return
	}
	c.byKey[key] = c.lru.PushFront(&entry{key: key, v: v})
	for c.lru.Len() > c.max {
		old := c.lru.Remove(c.lru.Back()).(*entry)
		delete(c.byKey, old.key)
	}
}

// Drop forgets key's version.
func (c *Cache) Drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.byKey[key]; e != nil {
		c.lru.Remove(e)
		delete(c.byKey, key)
	}
}

// Held is the version of key's file whose identity is id and bytes are
// data, both already read by the caller: the one cached when it is
// Current, else a new one, which replaces it.
func (c *Cache) Held(key string, id ID, data []byte) *Version {
	if v := c.Get(key); v != nil && v.Current(id, data) {
		return v
	}
	v := New(id, data)
	c.Put(key, v)
	return v
}

// ReadIn is the package's ReadIn of rel under root, cached under key: the
// version cached when the file's identity is still its own (nothing is
// read), else the file read, which replaces it. A file that cannot be
// read is forgotten.
func (c *Cache) ReadIn(root *os.Root, rel, key string) (*Version, error) {
	v, err := ReadIn(root, rel, c.Get(key))
	if err != nil {
		c.Drop(key)
		return nil, err
	}
	c.Put(key, v)
	return v, nil
}
